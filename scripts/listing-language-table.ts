/**
 * npm run listing-language-table [-- --check]
 *
 * Writes src/search/listing-language-ngrams.ts: eld's smallest n-gram table (extrasmall) with only
 * the n-grams the six listing languages have weights for. The whole table weighs some 60 MB in a
 * process, and its detections leave several times that in garbage, where the six languages' part
 * is a fifth of the n-grams; the detections are the same on listings (the unit tests compare).
 * Run it again after upgrading eld; `--check` exits 1 when the file is not what it would write
 * (a test runs it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { eldModule, LISTING_LANGUAGES, type EldTable } from '../src/search/listing-language-table.js';

const opts = new Command().option('--check', 'só verifica que o ficheiro está atualizado').parse().opts<{
  check?: boolean;
}>();

const FILE = new URL('../src/search/listing-language-ngrams.ts', import.meta.url);

const { ngramsData } = await eldModule<{ ngramsData: EldTable }>('../ngrams/extrasmall.js');
const kept = Object.entries(ngramsData.languages)
  .filter(([, code]) => (LISTING_LANGUAGES as readonly string[]).includes(code))
  .map(([index]) => Number(index));
const ngrams: EldTable['ngrams'] = {};
for (const [ngram, weights] of Object.entries(ngramsData.ngrams)) {
  const own = Object.fromEntries(kept.filter((i) => weights[i] !== undefined).map((i) => [i, weights[i]!]));
  if (Object.keys(own).length) ngrams[ngram] = own;
}
const table: EldTable = { type: ngramsData.type, languages: ngramsData.languages, isSubset: true, ngrams };

const text = `// Written by scripts/listing-language-table.ts (npm run listing-language-table): do not edit.
// eld's extrasmall n-gram table (eld ${readPackageVersion()}, Apache-2.0, Nito T.M.), only the n-grams of ${LISTING_LANGUAGES.join(', ')}.
import type { EldTable } from './listing-language-table.js';

export const LISTING_LANGUAGE_NGRAMS = JSON.parse(${JSON.stringify(JSON.stringify(table))}) as EldTable;
`;

if (opts.check) {
  const current = readFileSync(FILE, 'utf8');
  if (current !== text) {
    console.error(
      'src/search/listing-language-ngrams.ts não é o que o eld instalado dá: npm run listing-language-table',
    );
    process.exit(1);
  }
  console.log('src/search/listing-language-ngrams.ts atualizado.');
} else {
  writeFileSync(FILE, text);
  console.log(
    `src/search/listing-language-ngrams.ts: ${Object.keys(ngrams).length} de ${Object.keys(ngramsData.ngrams).length} n-gramas.`,
  );
}

function readPackageVersion(): string {
  const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  return lock.packages['node_modules/eld']?.version ?? '?';
}

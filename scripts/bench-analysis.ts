/**
 * npm run bench:analysis [-- --documents 100000 --rounds 2]
 *
 * What the text analyses of the mapping cost a rebuild: the same documents (the first items of
 * the stock at DATABASE_URL, made as the indexer makes them and read once into memory) loaded into
 * a new index of mappings/stock.json and of variants of it, or of the documents, that each change
 * one thing, as a rebuild loads them (no refreshes, no
 * replicas, no merges, two bulk requests of 2,000 in flight), then flushed. For each: documents a
 * second, the cluster's CPU per document (its processes on this machine, read from /proc) and the
 * index's size, and the ratio of its CPU to the current mapping's in the same round. The rounds
 * run the variants in turn, so that the machine's speed, which varies between runs, weighs on all
 * of them alike. Each index is deleted after it is measured.
 */
import { Command } from 'commander';
import { stockIndexDefinition } from '../indexer/index-admin.js';
import { openDatabase } from '../src/db/database.js';
import type { StockDocument } from '../src/search/engine.js';
import { toSource } from '../src/search/opensearch/documents.js';
import { LISTING_LANGUAGES } from '../src/search/listing-language.js';
import { readStockDocumentsAfter } from '../src/search/stock-documents.js';
import { clusterClientOrExit, processesBusyMs } from './bench-support.js';

const opts = new Command()
  .option('--documents <n>', 'documentos carregados em cada índice', '100000')
  .option('--rounds <n>', 'rondas (cada uma carrega todas as variantes)', '2')
  .parse()
  .opts<{ documents: string; rounds: string }>();

const client = clusterClientOrExit();
const wanted = Math.max(1, Number(opts.documents));
const BULK_DOCUMENTS = 2_000;
const IN_FLIGHT = 2;

interface IndexDefinition {
  settings: Record<string, unknown> & { analysis: { analyzer: Record<string, { tokenizer?: string }> } };
  mappings: {
    properties: Record<
      string,
      { fields?: Record<string, Record<string, unknown>> } & Record<string, unknown>
    >;
  };
}

const current = stockIndexDefinition() as unknown as IndexDefinition;

/** Every text field of the mapping, its sub-fields included. */
function textFields(definition: IndexDefinition): Record<string, unknown>[] {
  return Object.values(definition.mappings.properties).flatMap((field) =>
    [field, ...Object.values(field.fields ?? {})].filter((f) => f.type === 'text' && f.index !== false),
  );
}

/** The current mapping changed by `change`. */
function variant(change: (definition: IndexDefinition) => void): IndexDefinition {
  const definition = structuredClone(current);
  change(definition);
  return definition;
}

/** How a variant's documents differ from the indexer's: each item in its own language, or not. */
type Languages = 'own' | 'all six' | 'none';

const variants: Record<string, { definition: IndexDefinition; languages: Languages }> = {
  'o mapeamento atual': { definition: current, languages: 'own' },
  'cada artigo nas seis línguas': { definition: current, languages: 'all six' },
  'com posições': {
    definition: variant((d) => {
      for (const field of textFields(d)) delete field.index_options;
    }),
    languages: 'own',
  },
  'línguas com o tokenizer standard': {
    definition: variant((d) => {
      for (const language of LISTING_LANGUAGES)
        d.settings.analysis.analyzer[`${language}_folded`]!.tokenizer = 'standard';
    }),
    languages: 'own',
  },
  'sem as línguas': {
    definition: variant((d) => {
      delete d.mappings.properties.text_lang;
    }),
    languages: 'none',
  },
};

/** The first items' documents as the indexer writes them, in id order. */
async function readDocuments(): Promise<StockDocument[]> {
  const handle = await openDatabase({
    url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  });
  const db = handle.db;
  const documents: StockDocument[] = [];
  try {
    while (documents.length < wanted) {
      const after = documents.length ? documents[documents.length - 1]!.id : 0;
      const page = await readStockDocumentsAfter(db, after, Math.min(5_000, wanted - documents.length));
      if (page.length === 0) break;
      documents.push(...page);
    }
  } finally {
    await handle.close();
  }
  return documents;
}

/** The documents' sources as bulk lines' second halves, their languages as `languages` says. */
function sources(documents: StockDocument[], languages: Languages): string[] {
  return documents.map((d) => {
    const source = toSource(languages === 'all six' ? { ...d, textLanguage: null } : d);
    if (languages === 'none') delete source.text_lang;
    return JSON.stringify(source);
  });
}

/** Loads the documents into a new index of `definition` as a rebuild does; its figures. */
async function load(name: string, definition: IndexDefinition, documents: string[]) {
  const index = `bench_analysis_${Object.keys(variants).indexOf(name)}`;
  await client.indices.delete({ index, ignore_unavailable: true });
  await client.indices.create({
    index,
    body: {
      ...definition,
      settings: {
        ...definition.settings,
        number_of_replicas: 0,
        refresh_interval: '-1',
        'translog.durability': 'async',
        'merge.policy.segments_per_tier': 100,
      },
    } as never,
  });
  const cpuBefore = processesBusyMs('java');
  const started = performance.now();
  let next = 0;
  const sender = async () => {
    while (next < documents.length) {
      const from = next;
      next += BULK_DOCUMENTS;
      const body = documents
        .slice(from, from + BULK_DOCUMENTS)
        .map((source, i) => `{"index":{"_id":"${from + i}"}}\n${source}\n`)
        .join('');
      const answer = await client.bulk({ index, body: body as never, filter_path: 'errors,items.*.error' });
      if (answer.body.errors) throw new Error(`${name}: ${JSON.stringify(answer.body.items?.slice(0, 1))}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
  await client.indices.flush({ index });
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = processesBusyMs('java') - cpuBefore;
  const stats = await client.indices.stats({ index, metric: 'store' });
  const bytes = Number(stats.body.indices?.[index]?.primaries?.store?.size_in_bytes ?? 0);
  await client.indices.delete({ index });
  return {
    docsPerSecond: documents.length / seconds,
    cpuMicrosPerDocument: (cpuMs * 1000) / documents.length,
    bytes,
  };
}

const documents = await readDocuments();
const known = documents.filter((d) => d.textLanguage !== null).length;
const bodies = Object.fromEntries(
  (['own', 'all six', 'none'] as const).map((languages) => [languages, sources(documents, languages)]),
) as Record<Languages, string[]>;
console.log(
  `${documents.length.toLocaleString('pt-PT')} documentos (${known.toLocaleString('pt-PT')} com a língua conhecida), ${opts.rounds} ronda(s); CPU do cluster (processos java) por documento:`,
);
for (let round = 1; round <= Math.max(1, Number(opts.rounds)); round++) {
  let baseline = 0;
  for (const [name, { definition, languages }] of Object.entries(variants)) {
    const figures = await load(name, definition, bodies[languages]);
    if (name === 'o mapeamento atual') baseline = figures.cpuMicrosPerDocument;
    console.log(
      `ronda ${round} | ${name.padEnd(34)} | ${Math.round(figures.docsPerSecond).toLocaleString('pt-PT').padStart(7)} docs/s` +
        ` | ${figures.cpuMicrosPerDocument.toFixed(0).padStart(4)} µs/doc (${(figures.cpuMicrosPerDocument / baseline).toFixed(2)}× o atual)` +
        ` | ${(figures.bytes / 1e6).toFixed(0)} MB`,
    );
  }
}
await client.close();

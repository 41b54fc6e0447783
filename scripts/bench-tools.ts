/**
 * npm run bench:tools — identificar-peca reading labels: accuracy over a seeded set of photo-like
 * labels (test/helpers/label-images.ts) and recognition times with pools of 1 and 2 workers.
 *
 *   npm run bench:tools -- [--labels 120] [--pools 1,2] [--seed 19]
 *
 * Stock is an in-memory engine holding one item per label reference (the tool looks references
 * up through the engine port; the engines' own speed is bench:search's business). Figures are
 * printed, not asserted.
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { noResultsStats, type SearchEngine, type StockHit } from '../src/search/engine.js';
import { normalizeReference } from '../src/search/references.js';
import { identifyPartTool } from '../src/tools/identify-part.js';
import { TextReader } from '../src/tools/text-reader.js';
import { labelDataUri, labelSet, LABEL_VARIANTS, type LabelSpec } from '../test/helpers/label-images.js';
import { percentile } from './bench-support.js';

const { values } = parseArgs({
  options: {
    labels: { type: 'string', default: '120' },
    pools: { type: 'string', default: '1,2' },
    seed: { type: 'string', default: '19' },
  },
});

/** Answers reference queries over the labels' references, one item each; nothing else. */
function labelStock(specs: LabelSpec[]): SearchEngine {
  const byReference = new Map(specs.map((s, i) => [normalizeReference(s.reference), { spec: s, id: i + 1 }]));
  return {
    name: 'postgres',
    async search(query) {
      const found = query.reference ? byReference.get(query.reference.normalized) : undefined;
      if (!found) return { total: 0, items: [], stats: noResultsStats() };
      const price = 10 + found.id;
      const item = { id: found.id, reference: found.spec.reference, partId: null, price } as StockHit;
      return {
        total: 1,
        items: [item],
        stats: { ...noResultsStats(), totalResults: 1, priceMin: price, priceMax: price, priceAvg: price },
      };
    },
    pageAfter: () => Promise.resolve({ items: [] }),
    stats: () => Promise.reject(new Error('not in the bench')),
    facets: () => Promise.resolve([]),
    ping: () => Promise.resolve(),
  };
}

interface Outcome {
  spec: LabelSpec;
  rank: number | null;
  readExactly: boolean;
  ms: number;
}

async function runPool(workers: number, specs: LabelSpec[], images: string[]) {
  const reader = new TextReader({ workers });
  const tool = identifyPartTool({
    engine: labelStock(specs),
    partNames: () => Promise.resolve(new Map()),
    reader,
    timeoutMs: 60_000,
  });
  const principal = {} as Parameters<typeof tool.run>[1]['principal'];
  const description = 'peça da foto';
  // start every worker before timing (the first image of each would pay ~1.5 s otherwise)
  await Promise.all(
    Array.from({ length: workers }, () => tool.run({ image: images[0]!, description }, { principal })),
  );
  const outcomes: Outcome[] = [];
  let next = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < specs.length) {
        const i = next++;
        const t = performance.now();
        const out = await tool.run({ image: images[i]!, description }, { principal });
        const ms = performance.now() - t;
        const wanted = normalizeReference(specs[i]!.reference);
        const at = out.referencias.findIndex((r) => r.normalizada === wanted);
        const read = out.referencias.find((r) => r.normalizada === wanted);
        outcomes.push({
          spec: specs[i]!,
          rank: at < 0 ? null : at + 1,
          readExactly: !!read && !read.corrigida,
          ms,
        });
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  await reader.close();
  return { outcomes, seconds };
}

async function main() {
  const count = Number(values.labels);
  const specs = labelSet(count, Number(values.seed));
  const images = await Promise.all(specs.map(labelDataUri));
  const kb = images.reduce((sum, i) => sum + (i.length * 3) / 4 / 1024, 0) / images.length;
  console.log(
    `${count} labels (seed ${values.seed}; ${LABEL_VARIANTS.join(', ')}), mean ${kb.toFixed(0)} KB; ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}`,
  );
  for (const workers of values.pools.split(',').map(Number)) {
    const { outcomes, seconds } = await runPool(workers, specs, images);
    const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
    const top = (n: number) => outcomes.filter((o) => o.rank !== null && o.rank <= n).length;
    const pct = (n: number) => `${((100 * n) / outcomes.length).toFixed(1)} %`;
    console.log(`\npool of ${workers}:`);
    console.log(
      `  right reference first: ${pct(top(1))}; in the top 3: ${pct(top(3))}; read without correction: ${pct(outcomes.filter((o) => o.readExactly).length)}`,
    );
    for (const variant of LABEL_VARIANTS) {
      const of = outcomes.filter((o) => o.spec.variant === variant);
      const hit = of.filter((o) => o.rank !== null && o.rank <= 3).length;
      console.log(`    ${variant.padEnd(13)} top 3: ${hit}/${of.length}`);
    }
    console.log(
      `  per image (prepare + read + look up): p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms; ${(outcomes.length / seconds).toFixed(2)} images/s`,
    );
    const missed = outcomes.filter((o) => o.rank === null || o.rank > 3);
    if (missed.length) {
      console.log(`  missed: ${missed.map((o) => `${o.spec.reference} (${o.spec.variant})`).join('; ')}`);
    }
  }
}

await main();

/**
 * npm run bench:analysis [-- --index bench_stock --documents 100000 --rounds 2]
 *
 * What the text analyses of the mapping cost a rebuild: the same documents (the first ones of the
 * index at OPENSEARCH_URL, read once into memory) loaded into a new index of mappings/stock.json
 * and of variants of it that each change one thing, as a rebuild loads them (no refreshes, no
 * replicas, no merges, two bulk requests of 2,000 in flight), then flushed. For each: documents a
 * second, the cluster's CPU per document (its processes on this machine, read from /proc) and the
 * index's size, and the ratio of its CPU to the current mapping's in the same round. The rounds
 * run the variants in turn, so that the machine's speed, which varies between runs, weighs on all
 * of them alike. Each index is deleted after it is measured.
 */
import { Command } from 'commander';
import { stockIndexDefinition } from '../indexer/index-admin.js';
import { clusterClientOrExit, processesBusyMs } from './bench-support.js';

const opts = new Command()
  .option('--index <alias>', 'alias do índice OpenSearch de onde vêm os documentos', 'bench_stock')
  .option('--documents <n>', 'documentos carregados em cada índice', '100000')
  .option('--rounds <n>', 'rondas (cada uma carrega todas as variantes)', '2')
  .parse()
  .opts<{ index: string; documents: string; rounds: string }>();

const client = clusterClientOrExit();
const wanted = Math.max(1, Number(opts.documents));
const BULK_DOCUMENTS = 2_000;
const IN_FLIGHT = 2;
const LANGUAGES = ['pt', 'en', 'es', 'fr', 'de', 'it'];

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

const variants: Record<string, IndexDefinition> = {
  'o mapeamento atual': current,
  'com posições': variant((d) => {
    for (const field of textFields(d)) delete field.index_options;
  }),
  'línguas com o tokenizer standard': variant((d) => {
    for (const language of LANGUAGES)
      d.settings.analysis.analyzer[`${language}_folded`]!.tokenizer = 'standard';
  }),
  'sem os subcampos das línguas': variant((d) => {
    const textAll = d.mappings.properties.text_all!;
    for (const language of LANGUAGES) delete textAll.fields![language];
  }),
};

/** The documents' sources as bulk lines' second halves, in id order. */
async function readDocuments(): Promise<string[]> {
  const documents: string[] = [];
  let after: unknown[] | undefined;
  while (documents.length < wanted) {
    const answer = await client.search({
      index: opts.index,
      body: {
        size: Math.min(5_000, wanted - documents.length),
        sort: [{ id: 'asc' }],
        ...(after ? { search_after: after } : {}),
      } as never,
    });
    const hits = answer.body.hits.hits;
    if (hits.length === 0) break;
    for (const hit of hits) documents.push(JSON.stringify(hit._source));
    after = hits[hits.length - 1]!.sort;
  }
  return documents;
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
console.log(
  `${documents.length.toLocaleString('pt-PT')} documentos de ${opts.index}, ${opts.rounds} ronda(s); CPU do cluster (processos java) por documento:`,
);
for (let round = 1; round <= Math.max(1, Number(opts.rounds)); round++) {
  let baseline = 0;
  for (const [name, definition] of Object.entries(variants)) {
    const figures = await load(name, definition, documents);
    if (definition === current) baseline = figures.cpuMicrosPerDocument;
    console.log(
      `ronda ${round} | ${name.padEnd(34)} | ${Math.round(figures.docsPerSecond).toLocaleString('pt-PT').padStart(7)} docs/s` +
        ` | ${figures.cpuMicrosPerDocument.toFixed(0).padStart(4)} µs/doc (${(figures.cpuMicrosPerDocument / baseline).toFixed(2)}× o atual)` +
        ` | ${(figures.bytes / 1e6).toFixed(0)} MB`,
    );
  }
}
await client.close();

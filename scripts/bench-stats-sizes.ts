/**
 * npm run bench:stats-sizes [-- --index bench_stock --rounds 4]
 *
 * What the detailed statistics of a small result set cost the machine on the OpenSearch engine,
 * computed the two ways the engine can: from its hits (read in price order with what the figures
 * are made of: stats-of-hits.ts) or aggregated by the cluster (the sellers' count, the histogram
 * and the prices at the quartiles' ranks in one msearch). Both come after the same first request
 * (the aggregated price figures), so the two ways are two round trips each. Result sets are vehicle
 * models of the index at OPENSEARCH_URL, alone or narrowed to a country or a condition (load and
 * index a stock first: npm run data:generate, npm run reindex), grouped by size; the rounds
 * alternate the two ways, and both give the same figures (checked).
 * The shard request cache is turned off on the index while it runs (and restored): a repeated
 * size-0 request would be answered from it, where reading hits never is, and the figures would
 * measure the cache. PRICES_READ_AT_ONCE, the size up to which the engine reads hits, is chosen from
 * this comparison.
 */
import { isDeepStrictEqual } from 'node:util';
import { Command } from 'commander';
import { OpenSearchEngine } from '../src/search/opensearch/opensearch-engine.js';
import { PRICES_READ_AT_ONCE } from '../src/search/opensearch/queries.js';
import { stockQuery, type QueryFields } from '../src/search/stock-query.js';
import { clusterClientOrExit, machineBusyMs } from './bench-support.js';

const opts = new Command()
  .option('--index <alias>', 'alias do índice OpenSearch medido', 'bench_stock')
  .option('--rounds <n>', 'rondas alternadas de cada forma', '4')
  .parse()
  .opts<{ index: string; rounds: string }>();

const client = clusterClientOrExit();
const index = opts.index;
const rounds = Math.max(1, Number(opts.rounds));
/** The largest result set measured: the engine reads hits up to 500 at most (one page of hits). */
const LARGEST = 500;
const BANDS = [
  { from: 1, to: 20 },
  { from: 21, to: 50 },
  { from: 51, to: 100 },
  { from: 101, to: 250 },
  { from: 251, to: LARGEST },
];
/** Searches per band, each asked this many times per round. */
const PER_BAND = 40;
const REPEATS = 4;
const CONCURRENCY = 4;

const ways = {
  'das linhas': new OpenSearchEngine(client, { index, pricesReadAtOnce: LARGEST }),
  agregadas: new OpenSearchEngine(client, { index, pricesReadAtOnce: 0 }),
};
type Way = keyof typeof ways;

/**
 * Searches whose statistics fall in each band (counted by the engine itself): a vehicle model, and
 * the same narrowed to a country or a condition for the smaller bands.
 */
async function sampleBands(): Promise<QueryFields[][]> {
  // (the client's generated types leave `field` out of a terms aggregation)
  const models = { terms: { field: 'vehicle_model', size: 5_000 } as never };
  const answer = await client.search({ index, body: { size: 0, aggs: { models } } });
  const buckets = (answer.body.aggregations as unknown as { models: { buckets: { key: string }[] } }).models
    .buckets;
  const bands: QueryFields[][] = BANDS.map(() => []);
  for (const { key } of buckets) {
    if (bands.every((band) => band.length >= PER_BAND)) break;
    const narrowed: QueryFields[] = [
      { vehicleModel: key },
      { vehicleModel: key, country: 'PT' },
      { vehicleModel: key, condition: 'usado_bom' },
      { vehicleModel: key, country: 'DE' },
    ];
    for (const fields of narrowed) {
      const { totalResults } = await ways.agregadas.stats(stockQuery(fields));
      const band = BANDS.findIndex((b) => totalResults >= b.from && totalResults <= b.to);
      if (band >= 0 && bands[band]!.length < PER_BAND) bands[band]!.push(fields);
    }
  }
  return bands;
}

/** Machine CPU (ms) per statistics request, each model asked REPEATS times, CONCURRENCY at once. */
async function cpuPerRequest(way: Way, searches: QueryFields[]): Promise<number> {
  const asked = searches.flatMap((fields) => Array.from({ length: REPEATS }, () => stockQuery(fields)));
  const before = machineBusyMs();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < asked.length) await ways[way].stats(asked[next++]!);
    }),
  );
  return (machineBusyMs() - before) / asked.length;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await client.indices.putSettings({ index, body: { 'index.requests.cache.enable': false } });
try {
  const bands = await sampleBands();
  console.log(
    `Estatísticas detalhadas no índice ${index}: CPU da máquina por pedido (ms), ${rounds} rondas alternadas, ` +
      `${REPEATS} pedidos por pesquisa, ${CONCURRENCY} de cada vez; a cache de pedidos do índice desligada. ` +
      `O motor lê as linhas até ${PRICES_READ_AT_ONCE} artigos.\n`,
  );
  console.log('| artigos | pesquisas | das linhas | agregadas | agregadas ÷ das linhas |');
  console.log('|---|---|---|---|---|');
  for (const [i, searches] of bands.entries()) {
    if (searches.length === 0) continue;
    for (const fields of searches.slice(0, 10)) {
      const query = stockQuery(fields);
      const [fromHits, aggregated] = await Promise.all([
        ways['das linhas'].stats(query),
        ways.agregadas.stats(query),
      ]);
      if (!isDeepStrictEqual(fromHits, aggregated)) {
        throw new Error(`as duas formas dão números diferentes para ${JSON.stringify(fields)}`);
      }
    }
    const figures: Record<Way, number[]> = { 'das linhas': [], agregadas: [] };
    for (let round = 0; round < rounds; round++) {
      for (const way of Object.keys(ways) as Way[]) figures[way].push(await cpuPerRequest(way, searches));
    }
    const [hits, aggs] = [median(figures['das linhas']), median(figures.agregadas)];
    const band = BANDS[i]!;
    console.log(
      `| ${band.from}–${band.to} | ${searches.length} | ${hits.toFixed(2)} | ${aggs.toFixed(2)} | ${(aggs / hits).toFixed(2)} |`,
    );
  }
} finally {
  await client.indices.putSettings({ index, body: { 'index.requests.cache.enable': null } });
  await client.close();
}

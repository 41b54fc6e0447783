/**
 * npm run bench:search [-- --engine postgres|opensearch|both --duration 20 --connections 16
 *                         --accounts 1 --only reference,stats --index bench_stock --reindex --out run.json]
 *
 * Load test of POST /data/search and /data/search/stats on the stock at DATABASE_URL (load a
 * million items first: npm run data:generate -- --items 1000000), on the Postgres engine, on the
 * OpenSearch engine (OPENSEARCH_URL; the index is built by `npm run reindex` when it is missing or
 * stale, or with --reindex, and its docs/s reported), or on both in one run. For each engine and
 * scenario it drives the real API, then a bare Koa handler running the same engine query in the
 * same server process, and prints p50/p99 latency, req/s, the API/bare throughput ratio, the
 * server's RSS, the CPU time each request cost, and OpenSearch's heap; with both engines, a
 * side-by-side table with the ratios the targets are set on; with --out, the figures as JSON, which
 * `npm run bench:curve` compares across stock sizes. With --accounts N the API's requests come from N
 * accounts (a key each, the connections shared out among them), as an API serving many integrators
 * sees them; by default from one. Pages asked with a search token come from the first account,
 * whose tokens they carry. A 5-second warm-up with searches that
 * find nothing comes first and is not measured. The server is compiled first (npm run build) and
 * runs from dist/, as the Dockerfile runs it.
 */
import { writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { clusterConnection } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { measureEngine, type EngineRun, type MeasuredSize } from './bench-search/measure.js';
import { ensureIndex } from './bench-search/opensearch-index.js';
import { printComparison, printEngineTable } from './bench-search/report.js';
import { sampleQueries } from './bench-search/samples.js';

const opts = new Command()
  .addOption(
    new Option('--engine <engine>', 'motor a medir')
      .choices(['postgres', 'opensearch', 'both'])
      .default(process.env.OPENSEARCH_URL ? 'both' : 'postgres'),
  )
  .option('--duration <s>', 'segundos por cenário e alvo', '20')
  .option('--connections <n>', 'ligações simultâneas', '16')
  .option('--accounts <n>', 'contas (uma chave cada) de onde vêm os pedidos à API', '1')
  .option('--only <list>', 'cenários separados por vírgulas')
  .option('--index <alias>', 'alias do índice OpenSearch medido', 'bench_stock')
  .option('--reindex', 'reconstrói o índice OpenSearch mesmo que esteja em dia', false)
  .option('--out <file>', 'guarda as medições em JSON (para npm run bench:curve)')
  .parse()
  .opts<{
    engine: 'postgres' | 'opensearch' | 'both';
    duration: string;
    connections: string;
    accounts: string;
    only?: string;
    index: string;
    reindex: boolean;
    out?: string;
  }>();

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error(
    'DATABASE_URL não está definido: indique a base de dados com os dados gerados (npm run data:generate).',
  );
  process.exit(1);
}
const engines = opts.engine === 'both' ? (['postgres', 'opensearch'] as const) : [opts.engine];
if (engines.includes('opensearch') && !process.env.OPENSEARCH_URL) {
  console.error('OPENSEARCH_URL não está definido: inicie um cluster com npm run opensearch:start.');
  process.exit(1);
}

const handle = await openDatabase({ url: databaseUrl, poolSize: 2 });
const samples = await sampleQueries(handle.db);
await handle.close();
console.log(
  `Benchmark sobre ${samples.items.toLocaleString('pt-PT')} artigos; ${opts.connections} ligações de ${opts.accounts} conta(s), ${opts.duration} s por cenário e alvo.`,
);

const reindex = engines.includes('opensearch')
  ? await ensureIndex(clusterConnection(process.env)!, opts.index, samples.items, opts.reindex)
  : null;

const runs: EngineRun[] = [];
for (const engine of engines) {
  const run = await measureEngine(engine, samples, {
    duration: Number(opts.duration),
    connections: Number(opts.connections),
    accounts: Number(opts.accounts),
    only: opts.only?.split(','),
    opensearchIndex: opts.index,
  });
  printEngineTable(run);
  runs.push(run);
}
if (reindex) {
  console.log(
    `\nReindexação (npm run reindex): ${reindex.documents.toLocaleString('pt-PT')} documentos em ${reindex.seconds.toFixed(1)} s, ${reindex.docsPerSecond} docs/s (alvo ≥ 5000 docs/s ${reindex.docsPerSecond >= 5000 ? 'ok' : 'FALHA'})`,
  );
}
if (runs.length === 2) printComparison(runs[0]!, runs[1]!);
if (opts.out) {
  const measured: MeasuredSize = {
    items: samples.items,
    date: new Date().toISOString(),
    durationSeconds: Number(opts.duration),
    connections: Number(opts.connections),
    accounts: Number(opts.accounts),
    runs,
  };
  writeFileSync(opts.out, JSON.stringify(measured, null, 2) + '\n');
  console.log(`\nMedições guardadas em ${opts.out}.`);
}

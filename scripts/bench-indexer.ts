/**
 * npm run bench:indexer [-- --seconds 60 --rate 50 --index bench_stock]
 *
 * Change-to-searchable latency of the production shape: the indexer runs as its own compiled
 * process against the stock at DATABASE_URL (REDIS_URL, OPENSEARCH_URL; the index built first by
 * `npm run reindex` or `npm run bench:search`), while this script updates `--rate` random stock
 * items per second in PostgreSQL, each in its own committed transaction. For every change it polls
 * the cluster with a search (not a realtime get: the document must be *searchable*) until the
 * item's version there reaches the committed one, and prints the p50/p95/p99/max of commit →
 * searchable, the changes measured, and the indexer's documents per second.
 */
import { spawn } from 'node:child_process';
import { Command } from 'commander';
import { sql } from 'kysely';
import { createClusterClient } from '../indexer/cluster.js';
import { openDatabase } from '../src/db/database.js';
import { compiled } from './bench-server-process.js';

const opts = new Command()
  .option('--seconds <n>', 'duração das alterações', '60')
  .option('--rate <n>', 'alterações de stock por segundo', '50')
  .option('--index <alias>', 'alias do índice OpenSearch', 'bench_stock')
  .parse()
  .opts<{ seconds: string; rate: string; index: string }>();

const { DATABASE_URL, REDIS_URL, OPENSEARCH_URL } = process.env;
if (!DATABASE_URL || !REDIS_URL || !OPENSEARCH_URL) {
  console.error('Defina DATABASE_URL, REDIS_URL e OPENSEARCH_URL (o indexador precisa dos três).');
  process.exit(1);
}
const seconds = Number(opts.seconds);
const rate = Number(opts.rate);

const handle = await openDatabase({ url: DATABASE_URL, poolSize: 4 });
const client = createClusterClient(OPENSEARCH_URL);
if (!(await client.indices.existsAlias({ name: opts.index })).body) {
  console.error(
    `O alias ${opts.index} não existe: construa o índice com npm run bench:search ou npm run reindex.`,
  );
  process.exit(1);
}
const maxId = Number(
  (await sql<{ id: string }>`select max(id) as id from stock_items`.execute(handle.db)).rows[0]!.id,
);

const indexer = spawn(
  process.execPath,
  [compiled('indexer/main.js'), '--metrics-port', '0', '--log-every', '5'],
  {
    env: { ...process.env, OPENSEARCH_INDEX: opts.index, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let indexerOutput = '';
indexer.stdout.on('data', (chunk: Buffer) => (indexerOutput += chunk.toString()));
await new Promise<void>((resolve, reject) => {
  const check = setInterval(() => {
    if (indexerOutput.includes('indexer started')) {
      clearInterval(check);
      resolve();
    }
    if (indexer.exitCode !== null) reject(new Error(`o indexador terminou:\n${indexerOutput}`));
  }, 50);
});
const metricsPort = Number(/"metricsPort":(\d+)/.exec(indexerOutput)![1]);
const indexedSoFar = async () =>
  Number(
    /^search_indexer_documents_indexed_total (\d+)/m.exec(
      await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(),
    )?.[1] ?? 0,
  );
console.log(
  `Indexador a correr; ${rate} alterações/s durante ${seconds} s sobre ${maxId.toLocaleString('pt-PT')} ids.`,
);

/** committed changes not yet seen searchable: id → the version committed and when */
const pending = new Map<number, { version: number; committedAt: number }>();
const lags: number[] = [];
let changes = 0;
const indexedBefore = await indexedSoFar();
const started = Date.now();

async function change(): Promise<void> {
  const id = 1 + Math.floor(Math.random() * maxId);
  const row = await sql<{ version: string }>`
    update stock_items set price = price + 0.01 where id = ${id} returning version`.execute(handle.db);
  if (row.rows.length === 0) return;
  changes++;
  pending.set(id, { version: Number(row.rows[0]!.version), committedAt: Date.now() });
}

/** One search for every pending id: those whose searchable version reached the committed one. */
async function poll(): Promise<void> {
  if (pending.size === 0) return;
  const ids = [...pending.keys()];
  const answer = await client.search({
    index: opts.index,
    body: { query: { ids: { values: ids.map(String) } }, size: ids.length, version: true, _source: false },
  });
  const now = Date.now();
  for (const hit of answer.body.hits.hits) {
    const id = Number(hit._id);
    const wanted = pending.get(id);
    if (wanted && (hit._version ?? 0) >= wanted.version) {
      lags.push(now - wanted.committedAt);
      pending.delete(id);
    }
  }
}

const writer = setInterval(() => void change().catch((e: unknown) => console.error(e)), 1000 / rate);
let polling = true;
const poller = (async () => {
  while (polling) {
    await poll().catch((e: unknown) => console.error(e));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
})();
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
clearInterval(writer);
const drainUntil = Date.now() + 30_000;
while (pending.size > 0 && Date.now() < drainUntil) await new Promise((resolve) => setTimeout(resolve, 50));
polling = false;
await poller;
const elapsed = (Date.now() - started) / 1000;
const indexed = (await indexedSoFar()) - indexedBefore;

lags.sort((a, b) => a - b);
const at = (p: number) => lags[Math.min(lags.length - 1, Math.floor(p * lags.length))] ?? NaN;
console.log(
  `\nAlterações: ${changes} (${(changes / seconds).toFixed(1)}/s); medidas até pesquisáveis: ${lags.length}; nunca vistas: ${pending.size}`,
);
console.log(
  `Alteração → pesquisável: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, máximo ${lags.at(-1)} ms (alvo p99 ≤ 2000 ms ${at(0.99) <= 2000 ? 'ok' : 'FALHA'})`,
);
console.log(`Indexador: ${indexed} documentos escritos, ${(indexed / elapsed).toFixed(1)} docs/s`);

indexer.kill('SIGTERM');
await new Promise((resolve) => indexer.once('exit', resolve));
await client.close();
await handle.close();

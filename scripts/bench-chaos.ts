/**
 * npm run bench:chaos [-- --minutes 10 --rate 50 --port 9250]
 *
 * The index under faults (issue 25): the compiled indexer follows a stream of `--rate` stock changes
 * a second for `--minutes`, and every minute a fault strikes, in turn: its Redis SIGKILLed and
 * started again empty; its OpenSearch stopped for 60 s; the indexer SIGKILLed and started again;
 * the indexer's PostgreSQL backends terminated. Then a full `index:verify`.
 *
 * Prints the changes made, the drift at the end (target 0), commit → searchable p50/p99 of the
 * changes made outside the fault windows (target p99 ≤ 2 s), and for each fault the time from the
 * end of its cause until every change committed before then was searchable (target ≤ 60 s).
 *
 * Needs DATABASE_URL with stock in it (npm run data:generate -- --items 100000). Runs its own
 * Redis (redis-server on a free port) and its own one-node OpenSearch (`--port`, started with
 * `npm run opensearch:start -- --clean`, stopped at the end); the index is built by the indexer's
 * first start. Settings are the production defaults (lease, retries, sweep).
 */
import { spawn } from 'node:child_process';
import { Command } from 'commander';
import { sql } from 'kysely';
import { createClusterClient } from '../indexer/cluster.js';
import { INDEXER_APPLICATION_NAME } from '../indexer/indexer.js';
import { openDatabase } from '../src/db/database.js';
import { percentile } from './bench-support.js';
import { startIndexerChild, type IndexerChild } from './indexer-bench/indexer-child.js';
import { SearchableTracker } from './indexer-bench/searchable-tracker.js';
import { startDedicatedCluster } from './opensearch/dedicated-cluster.js';
import { startRedisServer } from './redis-server-process.js';

const opts = new Command('bench:chaos')
  .option('--minutes <n>', 'duração', '10')
  .option('--rate <n>', 'alterações de stock por segundo', '50')
  .option('--port <n>', 'porto do OpenSearch próprio do benchmark', '9250')
  .option('--outage <s>', 'segundos que o OpenSearch fica parado', '60')
  .parse()
  .opts<{ minutes: string; rate: string; port: string; outage: string }>();

const { DATABASE_URL } = process.env;
if (!DATABASE_URL) {
  console.error('Defina DATABASE_URL (com stock: npm run data:generate -- --items 100000).');
  process.exit(1);
}
const minutes = Number(opts.minutes);
const rate = Number(opts.rate);
const alias = 'chaos_stock';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const clock = (t: number) => `${((t - started) / 1000).toFixed(0).padStart(4)} s`;

type FaultKind = 'redis' | 'opensearch' | 'indexer' | 'postgres';
const FAULTS: FaultKind[] = ['redis', 'opensearch', 'indexer', 'postgres'];
const FAULT_NAMES: Record<FaultKind, string> = {
  redis: 'Redis morto (SIGKILL) e reiniciado vazio',
  opensearch: `OpenSearch parado ${opts.outage} s`,
  indexer: 'indexador morto (SIGKILL) e reiniciado',
  postgres: 'ligações do indexador ao PostgreSQL terminadas',
};
interface Fault {
  kind: FaultKind;
  startedAt: number;
  causeEndedAt: number;
  convergedAt: number | null;
}

const handle = await openDatabase({ url: DATABASE_URL, poolSize: 4 });
const items = Number(
  (await sql<{ n: string }>`select max(id) as n from stock_items`.execute(handle.db)).rows[0]!.n ?? 0,
);
if (!items) {
  console.error('O stock está vazio: npm run data:generate -- --items 100000');
  process.exit(1);
}
console.log(
  `A preparar: Redis próprio, OpenSearch próprio no porto ${opts.port}, índice construído pelo indexador…`,
);
const redis = await startRedisServer();
const cluster = await startDedicatedCluster(Number(opts.port));
const client = createClusterClient(cluster.url);
await sql`update search_outbox set done_at = now() where done_at is null`.execute(handle.db);
const env = { REDIS_URL: redis.url, OPENSEARCH_URL: cluster.url, OPENSEARCH_INDEX: alias, DATABASE_URL };
let indexer: IndexerChild = await startIndexerChild(env);

const tracker = new SearchableTracker(client, alias);
tracker.start(100);
const faults: Fault[] = [];
let writeErrors = 0;
const started = Date.now();
console.log(
  `${minutes} min a ${rate} alterações/s sobre ${items.toLocaleString('pt-PT')} ids; uma falha por minuto.`,
);

const change = async () => {
  const id = 1 + Math.floor(Math.random() * items);
  const row = await sql<{ version: string }>`
    update stock_items set price = price + 0.01 where id = ${id} returning version`.execute(handle.db);
  if (row.rows[0]) tracker.committed(id, Number(row.rows[0].version));
};
const writer = setInterval(() => void change().catch(() => writeErrors++), 1000 / rate);

/** Follows a fault until every change committed before its cause ended is searchable. */
function watchConvergence(fault: Fault): void {
  void (async () => {
    while (tracker.pendingSince(fault.causeEndedAt) > 0) await pause(100);
    fault.convergedAt = Date.now();
    console.log(
      `${clock(fault.convergedAt)}  convergiu: ${FAULT_NAMES[fault.kind]} — ${((fault.convergedAt - fault.causeEndedAt) / 1000).toFixed(1)} s depois do fim da causa`,
    );
  })();
}

async function strike(kind: FaultKind): Promise<void> {
  const startedAt = Date.now();
  console.log(`${clock(startedAt)}  falha: ${FAULT_NAMES[kind]}`);
  if (kind === 'redis') {
    await redis.kill();
    await redis.restart();
  } else if (kind === 'opensearch') {
    await cluster.stop();
    await pause(Number(opts.outage) * 1000);
    await cluster.start();
  } else if (kind === 'indexer') {
    await indexer.kill();
    indexer = await startIndexerChild(env);
  } else {
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
               where datname = current_database() and application_name = ${INDEXER_APPLICATION_NAME}`.execute(
      handle.db,
    );
  }
  const fault: Fault = { kind, startedAt, causeEndedAt: Date.now(), convergedAt: null };
  faults.push(fault);
  watchConvergence(fault);
}

for (let minute = 1; minute < minutes; minute++) {
  const at = started + minute * 60_000;
  if (Date.now() < at) await pause(at - Date.now());
  await strike(FAULTS[(minute - 1) % FAULTS.length]!);
}
const end = started + minutes * 60_000;
if (Date.now() < end) await pause(end - Date.now());
clearInterval(writer);
const stoppedWriting = Date.now();
console.log(`${clock(stoppedWriting)}  fim das alterações; à espera de que todas sejam pesquisáveis…`);
while (tracker.pendingCount > 0 && Date.now() - stoppedWriting < 10 * 60_000) await pause(200);
await tracker.stop();

console.log('index:verify sobre o índice inteiro…');
const verify = await runVerify();

// Changes made while a fault was under way (from its start until it converged) are the fault's.
const inFault = (t: number) => faults.some((f) => t >= f.startedAt && t <= (f.convergedAt ?? Infinity));
const calm = tracker.changes.filter((c) => c.searchableAt !== null && !inFault(c.committedAt));
const lags = calm.map((c) => c.searchableAt! - c.committedAt);
console.log('\n== bench:chaos ==');
console.log(
  `alterações feitas: ${tracker.changes.length.toLocaleString('pt-PT')} (${writeErrors} falharam no PostgreSQL); nunca pesquisáveis: ${tracker.pendingCount}`,
);
console.log(`index:verify no fim: saída ${verify.code}\n${verify.summary}`);
console.log(
  `alteração → pesquisável fora das janelas de falha (${lags.length} alterações): p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms (alvo p99 ≤ 2000 ms)`,
);
for (const kind of FAULTS) {
  const times = faults
    .filter((f) => f.kind === kind)
    .map((f) =>
      f.convergedAt === null ? 'não convergiu' : `${((f.convergedAt - f.causeEndedAt) / 1000).toFixed(1)} s`,
    );
  if (times.length)
    console.log(`convergência depois de "${FAULT_NAMES[kind]}": ${times.join(', ')} (alvo ≤ 60 s)`);
}

await indexer.stop();
await client.close();
await cluster.stop();
await redis.stop();
await handle.close();

/** npm run index:verify against the benchmark's index; its exit code and printed summary. */
function runVerify(): Promise<{ code: number | null; summary: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'indexer/verify-cli.ts'], {
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => resolve({ code, summary: out.trim() }));
  });
}

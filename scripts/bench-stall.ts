/**
 * npm run bench:stall [-- --seconds 60 --connections 64 --freeze-at 15 --thaw-at 35 --port 9260]
 *
 * The search engine frozen under load (issue 28): the compiled API on OpenSearch, `--connections`
 * callers searching back to back for `--seconds`, and the cluster's process stopped with SIGSTOP
 * from `--freeze-at` to `--thaw-at` (as a long GC pause, a full disk or a network partition look to
 * a client). Prints the answers per second (200 and 503) in 5-s windows, the latency of the 503s
 * while the breaker was open (p50/p99), when it opened and closed, the time to the first answer
 * after the thaw, and the credits the clients were told against those debited.
 *
 * Needs DATABASE_URL with stock (npm run data:generate -- --items 100000); runs its own one-node
 * OpenSearch on `--port` (its index built from the database) and stops it at the end.
 */
import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Command } from 'commander';
import { sql } from 'kysely';
import { createClusterClient } from '../indexer/cluster.js';
import { rebuildIndex } from '../indexer/rebuild.js';
import { createAccount } from '../src/accounts/accounts.js';
import { createApiKey } from '../src/accounts/api-keys.js';
import { moveCredits } from '../src/credits/credit-movements.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { buildCompiled } from './bench-server-process.js';
import { percentile } from './bench-support.js';
import { startDedicatedCluster } from './opensearch/dedicated-cluster.js';

const opts = new Command('bench:stall')
  .option('--seconds <n>', 'duração da carga', '60')
  .option('--connections <n>', 'clientes em simultâneo', '64')
  .option('--freeze-at <s>', 'segundo em que o OpenSearch é parado (SIGSTOP)', '15')
  .option('--thaw-at <s>', 'segundo em que continua (SIGCONT)', '35')
  .option('--port <n>', 'porto do OpenSearch próprio do benchmark', '9260')
  .parse()
  .opts<{ seconds: string; connections: string; freezeAt: string; thawAt: string; port: string }>();
const { DATABASE_URL } = process.env;
if (!DATABASE_URL) {
  console.error('Defina DATABASE_URL (com stock: npm run data:generate -- --items 100000).');
  process.exit(1);
}
const SECONDS = Number(opts.seconds);
const CONNECTIONS = Number(opts.connections);
const FREEZE_MS = Number(opts.freezeAt) * 1000;
const THAW_MS = Number(opts.thawAt) * 1000;
const CREDITS = 10_000_000;
const METRICS_TOKEN = 'stall-metrics-token-0123456789';
const alias = 'stall_stock';

const handle = await openDatabase({ url: DATABASE_URL, poolSize: 4 });
const db = handle.db;
await migrate(db);
const references = (
  await sql<{ r: string }>`select reference as r from stock_items tablesample system (1) limit 1000`.execute(
    db,
  )
).rows.map((row) => row.r);
if (references.length === 0) {
  console.error('A base de dados não tem stock: npm run data:generate -- --items 100000');
  process.exit(1);
}
const account = await createAccount(db, {
  email: `stall-${Date.now()}@bench.local`,
  password: 'bench-password-1',
});
await db.transaction().execute((trx) =>
  moveCredits(trx, {
    accountId: account.id,
    delta: CREDITS - account.credits,
    kind: 'adjustment',
    reason: 'bench:stall',
    now: new Date(),
  }),
);
const key = await createApiKey(db, account.id, {
  name: 'stall',
  rate_limit_per_minute: 100_000_000,
  rate_limit_per_hour: 100_000_000,
});

console.log(`A preparar: OpenSearch próprio no porto ${opts.port}, índice construído do PostgreSQL…`);
const cluster = await startDedicatedCluster(Number(opts.port));
// stopped by a signal (or a closed pipe): exit, so that the cluster is continued and stopped too
for (const signal of ['SIGINT', 'SIGTERM', 'SIGPIPE'] as const) process.once(signal, () => process.exit(130));
process.stdout.on('error', () => process.exit(141));
const admin = createClusterClient(cluster.url);
await rebuildIndex(db, admin, alias);
const dist = buildCompiled();
const api = spawn(process.execPath, [join(dist, 'src', 'main.js')], {
  env: {
    ...process.env,
    DATABASE_URL,
    SEARCH_ENGINE: 'opensearch',
    OPENSEARCH_URL: cluster.url,
    OPENSEARCH_INDEX: alias,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED_DEMO_DATA: 'false',
    SEARCH_TOKEN_SECRET: 'stall-secret-stall-secret-stall-secret-00',
    RATE_LIMIT_PER_MINUTE: '100000000',
    RATE_LIMIT_PER_HOUR: '100000000',
    METRICS_TOKEN,
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
// nor is the API left running when this process ends early
const apiLeftBehind = () => api.kill('SIGKILL');
process.once('exit', apiLeftBehind);
const baseUrl = await new Promise<string>((resolve, reject) => {
  let out = '';
  api.once('exit', (code) => reject(new Error(`a API terminou (${code}) antes de estar pronta`)));
  const untilReady = (chunk: Buffer) => {
    out += chunk.toString();
    const url = /a correr em (http:\/\/\S+)/.exec(out)?.[1];
    if (!url) return;
    // from here on its output is drained unread: the callers share this process's CPU
    api.stdout!.off('data', untilReady).resume();
    resolve(url);
  };
  api.stdout!.on('data', untilReady);
});

interface Answer {
  at: number;
  status: number;
  ms: number;
}
const answers: Answer[] = [];
let transportErrors = 0;
/** the credits the 200s said they spent */
let told = 0;
const started = performance.now();
const elapsed = () => performance.now() - started;
let running = true;

/** One search over a kept-alive connection (node:http: lighter than fetch for the load generator,
 * which shares the machine's two cores with the API). */
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
function post(body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${baseUrl}/data/search`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'x-api-key': key.key,
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A caller: its next search as soon as the last is answered (a closed loop, as wrk's). */
async function caller(n: number): Promise<void> {
  for (let i = n; running; i += CONNECTIONS) {
    const sent = performance.now();
    try {
      const { status, text } = await post(JSON.stringify({ reference: references[i % references.length] }));
      answers.push({ at: sent - started, status, ms: performance.now() - sent });
      if (status === 200) told += (JSON.parse(text) as { credits_spent?: number }).credits_spent ?? 0;
    } catch {
      transportErrors++;
    }
  }
}

const scrape = async () =>
  (await fetch(`${baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();

/** The API's own histogram of its 503s to searches: count per bucket's upper bound (seconds). */
function refusalBuckets(text: string): Map<number, number> {
  const buckets = new Map<number, number>();
  const pattern =
    /^pss_http_request_duration_seconds_bucket\{(?=[^}]*route="\/data\/search")(?=[^}]*status="503")(?=[^}]*le="([^"]+)")[^}]*\} (\d+)/gm;
  for (const m of text.matchAll(pattern))
    buckets.set(m[1] === '+Inf' ? Infinity : Number(m[1]), Number(m[2]));
  return buckets;
}

/** The bucket bound under which `p` per cent of the requests between two scrapes were answered. */
function bucketPercentile(before: Map<number, number>, after: Map<number, number>, p: number): number | null {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  if (total === 0) return null;
  return bounds.find((b) => (after.get(b) ?? 0) - (before.get(b) ?? 0) >= (p / 100) * total) ?? null;
}

/** The breaker's state as the API exports it (0 closed, 1 half open, 2 open), polled. */
const breakerChanges: { at: number; state: number }[] = [];
/** the API's 503 histogram when the breaker opened, and when the cluster was continued */
const refusals: { atOpen: Map<number, number> | null; atThaw: Map<number, number> | null } = {
  atOpen: null,
  atThaw: null,
};
async function watchBreaker(): Promise<void> {
  let last = -1;
  while (running) {
    const text = await scrape();
    const state = Number(/^pss_breaker_state\{dependency="opensearch"\} (\d)/m.exec(text)?.[1] ?? -1);
    if (state !== last) breakerChanges.push({ at: elapsed(), state });
    if (state === 2 && !refusals.atOpen && elapsed() >= FREEZE_MS) refusals.atOpen = refusalBuckets(text);
    last = state;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

console.log(
  `${CONNECTIONS} clientes durante ${SECONDS} s; OpenSearch parado de ${FREEZE_MS / 1000} s a ${THAW_MS / 1000} s.`,
);
const watching = watchBreaker();
const callers = Array.from({ length: CONNECTIONS }, (_, n) => caller(n));
await new Promise((resolve) => setTimeout(resolve, FREEZE_MS));
cluster.freeze();
await new Promise((resolve) => setTimeout(resolve, THAW_MS - FREEZE_MS));
refusals.atThaw = refusalBuckets(await scrape());
cluster.thaw();
await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000 - THAW_MS));
running = false;
await Promise.all(callers);
await watching;
agent.destroy();

const debited =
  CREDITS -
  Number(
    (await db.selectFrom('accounts').select('credits').where('id', '=', account.id).executeTakeFirstOrThrow())
      .credits,
  );
const opened = breakerChanges.find((c) => c.state === 2 && c.at >= FREEZE_MS)?.at ?? null;
const closed = breakerChanges.find((c) => c.state === 0 && c.at >= THAW_MS)?.at ?? null;
const firstAfterThaw = answers
  .filter((a) => a.status === 200 && a.at >= THAW_MS)
  .sort((a, b) => a.at - b.at)[0];
const whileOpen = answers
  .filter((a) => a.status === 503 && opened !== null && a.at >= opened && a.at < THAW_MS)
  .map((a) => a.ms);

console.log('\n== bench:stall ==');
console.log('janela (s) | 200/s | 503/s | p99 200 (ms) | p99 503 (ms)');
for (let from = 0; from < SECONDS * 1000; from += 5_000) {
  const window = answers.filter((a) => a.at >= from && a.at < from + 5_000);
  const ok = window.filter((a) => a.status === 200);
  const refused = window.filter((a) => a.status === 503);
  console.log(
    `${String(from / 1000).padStart(4)}–${String((from + 5_000) / 1000).padEnd(4)} | ${(ok.length / 5).toFixed(0).padStart(5)} | ${(refused.length / 5).toFixed(0).padStart(5)} | ${String(
      ok.length
        ? Math.round(
            percentile(
              ok.map((a) => a.ms),
              99,
            ),
          )
        : '-',
    ).padStart(12)} | ${String(
      refused.length
        ? Math.round(
            percentile(
              refused.map((a) => a.ms),
              99,
            ),
          )
        : '-',
    ).padStart(12)}`,
  );
}
const others = answers.filter((a) => a.status !== 200 && a.status !== 503);
function statusCounts(): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}
console.log(
  `estados: ${JSON.stringify(statusCounts())}; outros: ${others.length}; erros de transporte: ${transportErrors}`,
);
console.log(
  `disjuntor aberto ${opened === null ? 'nunca' : `${((opened - FREEZE_MS) / 1000).toFixed(1)} s depois do SIGSTOP`}; fechado ${closed === null ? 'nunca' : `${((closed - THAW_MS) / 1000).toFixed(1)} s depois do SIGCONT`}; primeira resposta 200 ${firstAfterThaw ? `${((firstAfterThaw.at + firstAfterThaw.ms - THAW_MS) / 1000).toFixed(1)} s depois do SIGCONT` : 'nenhuma'}`,
);
console.log(
  `503 com o disjuntor aberto: ${whileOpen.length}, p50 ${whileOpen.length ? percentile(whileOpen, 50).toFixed(1) : '-'} ms, p99 ${whileOpen.length ? percentile(whileOpen, 99).toFixed(1) : '-'} ms (alvo p99 ≤ 50 ms)`,
);
const serverP50 =
  refusals.atOpen && refusals.atThaw ? bucketPercentile(refusals.atOpen, refusals.atThaw, 50) : null;
const serverP99 =
  refusals.atOpen && refusals.atThaw ? bucketPercentile(refusals.atOpen, refusals.atThaw, 99) : null;
console.log(
  `o mesmo, medido pela API (histograma pss_http_request_duration_seconds): p50 ≤ ${serverP50 === null ? '-' : serverP50 * 1000} ms, p99 ≤ ${serverP99 === null ? '-' : serverP99 * 1000} ms`,
);
if (refusals.atOpen && refusals.atThaw) {
  const { atOpen, atThaw } = refusals;
  console.log(
    'distribuição medida pela API (≤ limite: pedidos):',
    [...atThaw.keys()]
      .sort((a, b) => a - b)
      .map((b) => `${b === Infinity ? '+Inf' : b * 1000}: ${(atThaw.get(b) ?? 0) - (atOpen.get(b) ?? 0)}`)
      .join(', '),
  );
}
console.log(
  `créditos: ditos aos clientes ${told}, debitados ${debited} → ${told === debited ? 'IGUAIS' : 'DIFERENTES'}`,
);

process.off('exit', apiLeftBehind);
api.kill('SIGTERM');
await new Promise((resolve) => api.once('exit', resolve));
await admin.close();
await cluster.stop();
await handle.close();

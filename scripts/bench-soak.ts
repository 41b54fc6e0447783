/**
 * npm run bench:soak [-- --minutes 10 --connections 16 --warmup 15]
 *
 * Soak test: the API, compiled (npm run build) and run from dist/ as its own process (as the
 * Dockerfile runs it), on the PostgreSQL at DATABASE_URL (load stock first: npm run data:generate)
 * and on a redis-server of its own, under mixed traffic at 16 connections — charged searches, free
 * ones (no results), token paging, price statistics, catalog reads, balance — for --minutes, with a
 * fault in the middle of every minute, alternating: Redis killed (SIGKILL) and started again 5 s
 * later, empty; the API's PostgreSQL connections terminated (pg_terminate_backend on its
 * application_name). Prints per minute requests, p50/p99 and errors; the 5xx count other than 503
 * (target 0) and the 503s; whether the credits add up exactly (ledger = balance, debits = charged
 * searches = what the clients were told); the server's RSS after the warm-up and at the end (growth
 * target ≤ 10 %). Figures, not a test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { sql } from 'kysely';
import pg from 'pg';
import { createAccount, SIGNUP_CREDITS } from '../src/accounts/accounts.js';
import { createApiKey } from '../src/accounts/api-keys.js';
import { openSession } from '../src/accounts/sessions.js';
import { systemClock } from '../src/clock.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { buildCompiled } from './bench-server-process.js';
import { startRedisServer } from './redis-server-process.js';
import { percentile } from './bench-support.js';

const opts = new Command()
  .option('--minutes <n>', 'measured minutes (a fault in each)', '10')
  .option('--connections <n>', 'concurrent connections', '16')
  .option('--warmup <s>', 'seconds of traffic before measuring (pools, caches, JIT)', '15')
  .parse()
  .opts<{ minutes: string; connections: string; warmup: string }>();
const MINUTES = Number(opts.minutes);
const CONNECTIONS = Number(opts.connections);
const WARMUP_MS = Number(opts.warmup) * 1000;

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('DATABASE_URL não está definido: indique um PostgreSQL com stock (npm run data:generate).');
  process.exit(1);
}
const APPLICATION_NAME = `pss-soak-${process.pid}`;
const CREDITS = 100_000_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the account, and query values sampled from the data ----
const database = await openDatabase({ url: databaseUrl, poolSize: 2 });
const { db } = database;
await migrate(db);
const account = await createAccount(
  db,
  { email: `soak-${Date.now()}@bench.local`, password: 'soak-password-123' },
  { scrypt: { N: 1024, r: 8, p: 1 }, now: new Date() },
);
await db.transaction().execute(async (trx) => {
  await trx.updateTable('accounts').set({ credits: CREDITS }).where('id', '=', account.id).execute();
  await trx
    .insertInto('credit_ledger')
    .values({
      account_id: account.id,
      kind: 'adjustment',
      delta: CREDITS - SIGNUP_CREDITS,
      balance_after: CREDITS,
    })
    .execute();
});
const key = await createApiKey(db, account.id, {
  name: 'soak',
  rate_limit_per_minute: 100_000_000,
  rate_limit_per_hour: 100_000_000,
});
const session = await openSession(db, account.id, systemClock);
const references = (
  await sql<{ r: string }>`select reference as r from stock_items tablesample system (1) limit 2000`.execute(
    db,
  )
).rows.map((row) => row.r);
const makes = (
  await sql<{ m: string }>`select distinct vehicle_make as m from stock_items tablesample system (1)
                           where vehicle_make is not null limit 60`.execute(db)
).rows.map((row) => row.m);
if (references.length === 0) {
  console.error(
    'A base de dados não tem stock: carregue-o primeiro (npm run data:generate -- --items 200000).',
  );
  process.exit(1);
}

// ---- Redis and the API process ----
const METRICS_TOKEN = 'soak-metrics-token-0123456789';
const redis = await startRedisServer();
const dist = buildCompiled();
const api: ChildProcess = spawn(process.execPath, [join(dist, 'src', 'main.js')], {
  env: {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    PGAPPNAME: APPLICATION_NAME,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED_DEMO_DATA: 'false',
    SEARCH_TOKEN_SECRET: process.env.SEARCH_TOKEN_SECRET ?? 'soak-secret-soak-secret-soak-secret-000',
    RATE_LIMIT_PER_MINUTE: '100000000',
    RATE_LIMIT_PER_HOUR: '100000000',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000',
    METRICS_TOKEN: METRICS_TOKEN,
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
// pino writes its JSON lines to stdout; a crash's trace goes to stderr
let apiErrorLines = 0;
const countErrors = (chunk: Buffer) => {
  for (const line of chunk.toString().split('\n')) if (/"level":(50|60)/.test(line)) apiErrorLines++;
};
api.stdout!.on('data', countErrors);
api.stderr!.on('data', countErrors);
const baseUrl = await new Promise<string>((resolve, reject) => {
  let out = '';
  api.once('exit', (code) => reject(new Error(`a API terminou (${code}) antes de estar pronta`)));
  api.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const url = /a correr em (http:\/\/\S+)/.exec(out)?.[1];
    if (url) resolve(url);
  });
});
const alive = () => api.exitCode === null && api.signalCode === null;
const rssMb = () => {
  const status = readFileSync(`/proc/${api.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
};
interface HeapFigures {
  /** JavaScript objects, live or not yet collected */
  usedMb: number;
  /** what V8 has reserved for them: RSS follows this, not usedMb */
  totalMb: number;
  /** Buffers and other memory outside the V8 heap */
  externalMb: number;
}
/** The API's memory as V8 sees it (MB), from its own /metrics: what part of RSS is JavaScript. */
const heapFigures = async (): Promise<HeapFigures> => {
  const text = await (
    await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const mb = (name: string) =>
    Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 1024 / 1024;
  return {
    usedMb: mb('nodejs_heap_size_used_bytes'),
    totalMb: mb('nodejs_heap_size_total_bytes'),
    externalMb: mb('nodejs_external_memory_bytes'),
  };
};
const NO_FIGURES: HeapFigures = { usedMb: NaN, totalMb: NaN, externalMb: NaN };

// ---- traffic ----
interface MinuteStats {
  latencies: number[];
  statuses: Map<number, number>;
  fault: string;
  /** the API's resident memory and V8 heap in use at the minute's end (MB) */
  rssMb: number;
  heap: HeapFigures;
}
const minutes: MinuteStats[] = Array.from({ length: MINUTES }, () => ({
  latencies: [],
  statuses: new Map(),
  fault: '',
  rssMb: NaN,
  heap: NO_FIGURES,
}));
const statuses = new Map<number, number>();
const byKind = new Map<string, number>();
let creditsTold = 0;
let transportErrors = 0;
let measuredFrom = Number.POSITIVE_INFINITY;
let running = true;
const count = <K>(map: Map<K, number>, k: K) => map.set(k, (map.get(k) ?? 0) + 1);
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;

const credentials: Record<string, string>[] = [
  { 'X-API-Key': key.key },
  { Authorization: `Bearer ${session.token}` },
];
const bearer = credentials[1]!;

interface Paging {
  body: Record<string, unknown>;
  token: string;
  page: number;
  last: number;
}

async function call(
  kind: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  const started = performance.now();
  try {
    const response = await fetch(baseUrl + path, {
      method,
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const parsed = (await response.json()) as Record<string, unknown>;
    const now = performance.now();
    count(statuses, response.status);
    count(byKind, kind);
    const minute = Math.floor((Date.now() - measuredFrom) / 60_000);
    if (minute >= 0 && minute < MINUTES) {
      minutes[minute]!.latencies.push(now - started);
      count(minutes[minute]!.statuses, response.status);
    }
    if (response.status === 200 && typeof parsed.credits_spent === 'number')
      creditsTold += parsed.credits_spent;
    return { status: response.status, body: parsed };
  } catch {
    transportErrors++;
    await sleep(20);
    return null;
  }
}

async function connection(n: number): Promise<void> {
  let paging: Paging | null = null;
  for (let i = 0; running; i++) {
    const who = credentials[(n + i) % 2]!;
    if (paging && paging.page < paging.last) {
      paging.page++;
      await call('paging', 'POST', '/data/search', who, {
        ...paging.body,
        page: paging.page,
        search_token: paging.token,
      });
      continue;
    }
    paging = null;
    const roll = Math.random() * 100;
    if (roll < 30) {
      const body =
        Math.random() < 0.7
          ? { reference: pick(references), per_page: 5 }
          : { vehicle_make: pick(makes), per_page: 10, price_max: 50 + Math.floor(Math.random() * 400) };
      const answer = await call('search (charged)', 'POST', '/data/search', who, body);
      const token = answer?.body.search_token;
      const pages = Number(answer?.body.total_pages ?? 0);
      if (answer?.status === 200 && typeof token === 'string' && pages > 1)
        paging = { body, token, page: 1, last: Math.min(pages, 4) };
    } else if (roll < 45) {
      await call('search (no results, free)', 'POST', '/data/search', who, { reference: `NADA-${n}-${i}` });
    } else if (roll < 60) {
      await call('stats', 'POST', '/data/search/stats', who, { reference: pick(references) });
    } else if (roll < 85) {
      const path = pick([
        '/data/catalog/parts?q=trav&per_page=20',
        `/data/catalog/vehicle-makes?q=${encodeURIComponent(pick(makes).slice(0, 3))}`,
        '/data/catalog/brands',
        '/data/catalog/conditions',
        '/data/catalog/countries?lang=de',
      ]);
      await call('catalog', 'GET', path, {});
    } else {
      await call('balance', 'GET', '/data/credits/balance', bearer);
    }
  }
}

const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();

async function fault(minute: number): Promise<void> {
  if (minute % 2 === 0) {
    await redis.kill();
    minutes[minute]!.fault = 'Redis morto (SIGKILL), reiniciado 5 s depois';
    await sleep(5_000);
    await redis.restart();
  } else {
    const cut = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`,
      [APPLICATION_NAME],
    );
    minutes[minute]!.fault = `${cut.rowCount ?? 0} ligações PostgreSQL da API terminadas`;
  }
}

console.log(
  `Soak: ${MINUTES} min medidos (após ${WARMUP_MS / 1000} s de aquecimento), ${CONNECTIONS} ligações, API ${baseUrl} (pid ${api.pid}, dist/src/main.js), Redis :${redis.port}, ${references.length} referências amostradas`,
);
const loops = Array.from({ length: CONNECTIONS }, (_, n) => connection(n));
await sleep(WARMUP_MS);
const rssStart = rssMb();
let rssPeak = rssStart;
measuredFrom = Date.now();
for (let minute = 0; minute < MINUTES; minute++) {
  const minuteStart = measuredFrom + minute * 60_000;
  while (Date.now() < minuteStart + 30_000) {
    await sleep(Math.min(5_000, minuteStart + 30_000 - Date.now()));
    rssPeak = Math.max(rssPeak, rssMb());
  }
  await fault(minute);
  while (Date.now() < minuteStart + 60_000) {
    await sleep(Math.max(0, Math.min(5_000, minuteStart + 60_000 - Date.now())));
    rssPeak = Math.max(rssPeak, rssMb());
  }
  const m = minutes[minute]!;
  m.rssMb = rssMb();
  m.heap = await heapFigures().catch(() => NO_FIGURES);
  process.stdout.write(`  minuto ${minute + 1}: ${m.latencies.length} pedidos, falha: ${m.fault}\n`);
}
const rssEnd = rssMb();
running = false;
await Promise.all(loops);
const survived = alive();

// ---- the money ----
const { rows } = await admin.query<{
  credits: number;
  ledger_sum: number;
  searches_charged: number;
  search_debits: number;
  broken_chain: number;
}>(
  `select a.credits,
          (select coalesce(sum(delta), 0)::int from credit_ledger l where l.account_id = a.id) as ledger_sum,
          (select coalesce(sum(credits_spent), 0)::int from searches s where s.account_id = a.id) as searches_charged,
          (select coalesce(-sum(delta), 0)::int from credit_ledger l
            where l.account_id = a.id and l.search_id is not null) as search_debits,
          (select count(*)::int from (
             select balance_after, sum(delta) over (order by id) as running
               from credit_ledger l where l.account_id = a.id) chain
            where balance_after <> running) as broken_chain
     from accounts a where a.id = $1`,
  [account.id],
);
const money = rows[0]!;

// ---- report ----
const serverErrors = (map: Map<number, number>) =>
  [...map].filter(([s]) => s >= 500 && s !== 503).reduce((sum, [, n]) => sum + n, 0);
const unavailable = (map: Map<number, number>) => map.get(503) ?? 0;

console.log(
  '\nminuto | pedidos | pedidos/s | p50 ms | p99 ms | 503 | outros 5xx | RSS MB | heap usado | heap total | externa | falha',
);
minutes.forEach((m, i) => {
  console.log(
    [
      String(i + 1).padStart(6),
      String(m.latencies.length).padStart(7),
      (m.latencies.length / 60).toFixed(0).padStart(9),
      percentile(m.latencies, 50).toFixed(1).padStart(6),
      percentile(m.latencies, 99).toFixed(1).padStart(6),
      String(unavailable(m.statuses)).padStart(3),
      String(serverErrors(m.statuses)).padStart(10),
      m.rssMb.toFixed(0).padStart(6),
      m.heap.usedMb.toFixed(0).padStart(9),
      m.heap.totalMb.toFixed(0).padStart(10),
      m.heap.externalMb.toFixed(0).padStart(8),
      m.fault,
    ].join(' | '),
  );
});
const total = [...statuses.values()].reduce((a, b) => a + b, 0);
console.log(
  `\npedidos (com o aquecimento): ${total}; por tipo: ${JSON.stringify(Object.fromEntries(byKind))}`,
);
console.log(`estados: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
console.log(
  `5xx exceto 503: ${serverErrors(statuses)} (objetivo 0); 503: ${unavailable(statuses)}; erros de transporte: ${transportErrors}`,
);
console.log(
  `processo da API vivo no fim: ${survived ? 'sim' : 'NÃO'}; linhas de log de nível error da API: ${apiErrorLines} (503 incluídos)`,
);
const exact =
  money.credits === money.ledger_sum &&
  money.broken_chain === 0 &&
  money.search_debits === money.searches_charged &&
  money.searches_charged === creditsTold &&
  CREDITS - money.credits === creditsTold;
console.log(
  `créditos: clientes informados ${creditsTold}; debitados (pesquisas cobradas) ${money.searches_charged}; débitos no ledger ${money.search_debits}; saldo ${money.credits} = soma do ledger ${money.ledger_sum}; gasto ${CREDITS - money.credits}; cadeia do ledger ${money.broken_chain === 0 ? 'intacta' : `${money.broken_chain} linhas erradas`} → ${exact ? 'EXATO' : 'DIFERENTE'}`,
);
const growth = ((rssEnd - rssStart) / rssStart) * 100;
console.log(
  `RSS do servidor: início ${rssStart.toFixed(0)} MB (após o aquecimento), fim ${rssEnd.toFixed(0)} MB (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %, objetivo ≤ 10 %), pico ${rssPeak.toFixed(0)} MB`,
);

api.kill('SIGTERM');
await new Promise((resolve) => (alive() ? api.once('exit', resolve) : resolve(null)));
await redis.stop();
await admin.end();
await database.close();

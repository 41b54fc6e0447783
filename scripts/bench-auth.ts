/**
 * npm run bench:auth [-- --requests 3000 --duration 5 --connections 16]
 *
 * What authentication + rate limiting add to a request. Three routes answer the same tiny body
 * in the same process: one public and unlimited (the baseline), one behind an API key, one behind
 * a Bearer token, both rate-limited. Prints per-request latency (sequential, one connection: p50
 * and p99 of each, and what auth + limits add), then throughput under concurrency and its ratio
 * to the baseline. Uses DATABASE_URL / REDIS_URL when set (the production shape), else the
 * embedded PGlite and in-memory limits.
 */
import { Agent, get } from 'node:http';
import autocannon from 'autocannon';
import { Command } from 'commander';
import { pino } from 'pino';
import { createAccount } from '../src/accounts/accounts.js';
import { createApiKey } from '../src/accounts/api-keys.js';
import { openSession } from '../src/accounts/sessions.js';
import { migrate } from '../src/db/migrate.js';
import { route } from '../src/http/route.js';
import { startServer } from '../src/server.js';
import { createServices } from '../src/services.js';
import { benchConfig, percentile } from './bench-support.js';

const opts = new Command()
  .option('--requests <n>', 'sequential requests per route', '3000')
  .option('--duration <s>', 'seconds per route under concurrency', '5')
  .option('--connections <n>', 'concurrent connections', '16')
  .parse()
  .opts<{ requests: string; duration: string; connections: string }>();

const config = benchConfig({
  DATA_DIR: process.env.DATA_DIR ?? '.data/bench-auth',
  // Limits are counted on every request but never reached.
  RATE_LIMIT_PER_MINUTE: '1000000000',
  RATE_LIMIT_PER_HOUR: '1000000000',
});
const services = await createServices(config, { logger: pino({ level: 'silent' }) });
await migrate(services.db);
const { db, clock } = services;

const account = await createAccount(
  db,
  { email: `bench-auth-${Date.now()}@bench.local`, password: 'bench-password-123' },
  { scrypt: { N: 1024, r: 8, p: 1 } },
);
const { key } = await createApiKey(db, account.id, { name: 'bench' });
const { token } = await openSession(db, account.id, clock);

const answer = async () => ({ body: { success: true } });
const okSchema = { 200: { description: 'ok' } };
const benchRoutes = [
  route({
    method: 'get',
    path: '/bench/open',
    auth: 'public',
    rateLimit: 'none',
    summary: 'baseline',
    tags: ['bench'],
    responses: okSchema,
    handler: answer,
  }),
  route({
    method: 'get',
    path: '/bench/guarded',
    auth: 'either',
    summary: 'auth + limits',
    tags: ['bench'],
    responses: okSchema,
    handler: answer,
  }),
];
const server = await startServer(services, 0, '127.0.0.1', { extraRoutes: benchRoutes });

const targets: { name: string; path: string; headers: Record<string, string> }[] = [
  { name: 'sem autenticação (base)', path: '/bench/open', headers: {} },
  { name: 'X-API-Key', path: '/bench/guarded', headers: { 'x-api-key': key } },
  { name: 'Bearer', path: '/bench/guarded', headers: { authorization: `Bearer ${token}` } },
];

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function timeOne(path: string, headers: Record<string, string>): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    get(server.url + path, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${path} respondeu ${res.statusCode}`));
        else resolve(Number(process.hrtime.bigint() - started) / 1e6);
      });
    }).on('error', reject);
  });
}

// Warm-up, then interleave the routes so drift in the machine's load hits all of them alike.
for (let i = 0; i < 300; i++) for (const t of targets) await timeOne(t.path, t.headers);
const samples = targets.map(() => [] as number[]);
for (let i = 0; i < Number(opts.requests); i++) {
  for (const [index, t] of targets.entries()) samples[index]!.push(await timeOne(t.path, t.headers));
}
const latency = samples.map((s) => ({ p50: percentile(s, 50), p99: percentile(s, 99) }));

console.log(
  `Auth + limites: base de dados ${services.database.kind}, limites em ${services.redis ? 'Redis' : 'memória'}; ${opts.requests} pedidos sequenciais por rota.\n`,
);
console.log('| rota | p50 | p99 | p50 acrescentado | p99 acrescentado |\n|---|---|---|---|---|');
for (const [index, t] of targets.entries()) {
  const l = latency[index]!;
  const added = index === 0 ? '—' : `${(l.p50 - latency[0]!.p50).toFixed(3)} ms`;
  const addedP99 = index === 0 ? '—' : `${(l.p99 - latency[0]!.p99).toFixed(3)} ms`;
  console.log(`| ${t.name} | ${l.p50.toFixed(3)} ms | ${l.p99.toFixed(3)} ms | ${added} | ${addedP99} |`);
}
const worstAdded = Math.max(...latency.slice(1).map((l) => l.p50 - latency[0]!.p50));
console.log(
  `\nAlvo: ≤ 1 ms acrescentado no p50 → ${worstAdded <= 1 ? 'ok' : 'FALHA'} (${worstAdded.toFixed(3)} ms)\n`,
);

console.log(`| rota | req/s (${opts.connections} ligações) | rácio à base |\n|---|---|---|`);
let baseRps = 0;
for (const t of targets) {
  const result = await autocannon({
    url: server.url + t.path,
    connections: Number(opts.connections),
    duration: Number(opts.duration),
    headers: t.headers,
  });
  if (result.non2xx || result.errors)
    throw new Error(`${t.name}: ${result.non2xx + result.errors} respostas falhadas`);
  const rps = result.requests.average;
  baseRps ||= rps;
  console.log(`| ${t.name} | ${rps.toFixed(0)} | ${(rps / baseRps).toFixed(2)} |`);
}

agent.destroy();
await server.close();

/**
 * The measured process of `npm run bench:search`: the real API and, beside it, a bare Koa handler
 * that runs the same engine query with nothing else (no auth, rate limit, validation, charging).
 * Started by scripts/bench-search.ts through IPC; not meant to be run by hand.
 */
import Koa from 'koa';
import { sql } from 'kysely';
import { pino } from 'pino';
import { createAccount } from '../src/accounts/accounts.js';
import { createApiKey } from '../src/accounts/api-keys.js';
import { migrate } from '../src/db/migrate.js';
import { createSearchEngine } from '../src/search/create-engine.js';
import { parseSearchBody } from '../src/search/search-request.js';
import { startServer } from '../src/server.js';
import { createServices } from '../src/services.js';
import { benchConfig, serveBare, stopOnRequest } from './bench-support.js';

const config = benchConfig();
const services = await createServices(config, { logger: pino({ level: 'silent' }) });
await migrate(services.db);
const { db } = services;
// The bare handler has an engine of its own: the API's cached statistics must not warm its runs.
const engine = createSearchEngine(config, db, services.logger);

const total = await sql<{ n: string }>`select count(*) as n from stock_items`.execute(db);
const account = await createAccount(
  db,
  { email: `bench-${Date.now()}@bench.local`, password: 'bench-password-123' },
  { scrypt: { N: 1024, r: 8, p: 1 } },
);
await db.updateTable('accounts').set({ credits: 100_000_000 }).where('id', '=', account.id).execute();
const key = await createApiKey(db, account.id, {
  name: 'bench',
  rate_limit_per_minute: 100_000_000,
  rate_limit_per_hour: 100_000_000,
});

// Realistic query values sampled from the data itself.
const references = (
  await sql<{ reference: string }>`
  select reference from stock_items tablesample system (1) limit 2000`.execute(db)
).rows.map((r) => r.reference);
const vehicles = (
  await sql<{ make: string; model: string; p: string }>`
  select vehicle_make as make, split_part(vehicle_model, ' ', 1) as model, percentile_disc(0.5) within group (order by price) as p
  from (select * from stock_items tablesample system (1)) s
  where vehicle_make is not null and vehicle_model is not null
  group by 1, 2 limit 500`.execute(db)
).rows;
const words = (
  await sql<{ w: string }>`
  select distinct lower(split_part(title, ' ', 1)) as w from (select title from stock_items tablesample system (0.5)) s
  where length(split_part(title, ' ', 1)) > 3 limit 300`.execute(db)
).rows.map((r) => r.w);

const api = await startServer(services, 0, '127.0.0.1');

const bare = new Koa();
bare.use(async (ctx) => {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  const parsed = parseSearchBody(body);
  ctx.body = ctx.path.endsWith('/stats')
    ? await engine.stats(parsed.query)
    : await engine.search(parsed.query, { page: parsed.page, perPage: parsed.perPage });
});
const baseline = await serveBare(bare);

process.send!({
  type: 'ready',
  apiUrl: api.url,
  bareUrl: baseline.url,
  apiKey: key.key,
  items: Number(total.rows[0]!.n),
  samples: { references, vehicles, words },
});
stopOnRequest(api, baseline, (message) => {
  if (message.type === 'usage') {
    const cpu = process.cpuUsage();
    process.send!({ type: 'usage', rss: process.memoryUsage().rss, cpuMs: (cpu.user + cpu.system) / 1000 });
  }
});

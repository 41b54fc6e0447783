/**
 * The measured process of `npm run bench:search`: the real API and, beside it, a bare Koa handler
 * that runs the same engine query with nothing else (no auth, rate limit, validation, charging),
 * both on the engine SEARCH_ENGINE names. Started by scripts/bench-search.ts through IPC; not meant
 * to be run by hand.
 */
import Koa from 'koa';
import { pino } from 'pino';
import { createAccount } from '../src/accounts/accounts.js';
import { createApiKey } from '../src/accounts/api-keys.js';
import { migrate } from '../src/db/migrate.js';
import { createSearchEngine } from '../src/search/create-engine.js';
import { assertWithinResultWindow } from '../src/search/result-window.js';
import { resolveSearchTokenSecret } from '../src/config.js';
import { parseSearchBody } from '../src/search/search-request.js';
import { continuation, searchPage } from '../src/search/search-service.js';
import { checkSearchToken, issueSearchToken, searchTokenExpiry } from '../src/search/search-token.js';
import { startServer } from '../src/server.js';
import { createServices } from '../src/services.js';
import { benchConfig, serveBare, stopOnRequest } from './bench-support.js';

// The account's plan must not be what is measured: limits counted on every request, never reached.
const config = benchConfig({ RATE_LIMIT_PER_MINUTE: '1000000000', RATE_LIMIT_PER_HOUR: '1000000000' });
const services = await createServices(config, { logger: pino({ level: 'silent' }) });
await migrate(services.db);
const { db } = services;
// The bare handler has an engine of its own: the API's cached statistics must not warm its runs.
const engine = createSearchEngine(config, db, services.logger);
const secret = resolveSearchTokenSecret(config);

/** An account with credits enough for any run, and a key of its own. */
async function benchAccount(n: number) {
  const account = await createAccount(
    db,
    { email: `bench-${Date.now()}-${n}@bench.local`, password: 'bench-password-123' },
    { scrypt: { N: 1024, r: 8, p: 1 } },
  );
  await db.updateTable('accounts').set({ credits: 100_000_000 }).where('id', '=', account.id).execute();
  const key = await createApiKey(db, account.id, {
    name: 'bench',
    rate_limit_per_minute: 100_000_000,
    rate_limit_per_hour: 100_000_000,
  });
  return { account, key };
}
// the API's requests come from BENCH_ACCOUNTS accounts; the bare handler reads tokens as the first's
const accounts = await Promise.all(
  Array.from({ length: Number(process.env.BENCH_ACCOUNTS ?? 1) }, (_, n) => benchAccount(n)),
);
const { account } = accounts[0]!;

const api = await startServer(services, 0, '127.0.0.1');

const bare = new Koa();
bare.use(async (ctx) => {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  const parsed = parseSearchBody(body);
  if (ctx.path.endsWith('/stats')) {
    ctx.body = await engine.stats(parsed.query);
    return;
  }
  // the engine is never asked for a page the service would refuse (the bench's pages never are)
  const page = { page: parsed.page, perPage: parsed.perPage };
  assertWithinResultWindow(page);
  // a token is read and issued as the service does (sequential paging reads on from it)
  const check = checkSearchToken(secret, parsed.searchToken, account.id, parsed.fieldsHash, new Date());
  const result = await searchPage(engine, parsed.query, page, check);
  const next = continuation(page, result);
  const token = issueSearchToken(secret, {
    accountId: account.id,
    fieldsHash: parsed.fieldsHash,
    expiresAt: check.expiresAt ?? searchTokenExpiry(new Date()),
    ...(next ? { next } : {}),
  });
  ctx.body = { ...result, search_token: token.token };
});
const baseline = await serveBare(bare);

process.send!({
  type: 'ready',
  apiUrl: api.url,
  bareUrl: baseline.url,
  apiKeys: accounts.map(({ key }) => key.key),
});
stopOnRequest(api, baseline, (message) => {
  if (message.type === 'usage') {
    const cpu = process.cpuUsage();
    process.send!({ type: 'usage', rss: process.memoryUsage().rss, cpuMs: (cpu.user + cpu.system) / 1000 });
  }
});

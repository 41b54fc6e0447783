import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialCache, type KnownCredential } from '../../src/accounts/credential-cache.js';
import { changePlan } from '../../src/accounts/plans.js';
import { ManualClock } from '../../src/clock.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_REDIS_URL } from '../helpers/test-env.js';
import { waitFor } from '../helpers/wait-until.js';

/** part 7 has results (a charged first page); NADA finds nothing (free) */
const CHARGED = { part_id: 7 };
const FREE = { reference: 'NADA' };
const TTL_SECONDS = 10;

/** Revokes a key behind the API's back, as a process whose announcement never arrived would. */
const revokeInDatabase = (app: TestApp, keyId: string) =>
  app.services.db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', keyId).execute();

const balance = async (app: TestApp, account: TestAccount) =>
  (
    await app.services.db
      .selectFrom('accounts')
      .select('credits')
      .where('id', '=', account.accountId)
      .executeTakeFirstOrThrow()
  ).credits;

describe('credentials kept by an API process', () => {
  let app: TestApp;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = new ManualClock();
    app = await startTestApp({ clock, env: { CREDENTIAL_CACHE_SECONDS: String(TTL_SECONDS) } });
    await loadStockFixture(app.services.db);
  });
  afterAll(() => app.close());

  it('are trusted for CREDENTIAL_CACHE_SECONDS at most: a key revoked behind its back stops working then', async () => {
    const account = await createTestAccount(app.services.db, clock);
    const api = app.api.withApiKey(account.apiKey);
    expect((await api.post('/data/search', FREE)).status).toBe(200);
    await revokeInDatabase(app, account.apiKeyId);
    // still known to this process: a search that costs nothing goes through
    expect((await api.post('/data/search', FREE)).status).toBe(200);
    clock.advance(TTL_SECONDS * 1000 + 1);
    const refused = await api.post('/data/search', FREE);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('INVALID_API_KEY');
  });

  it('never charge a key revoked since it was looked up: 401, no results, balance unchanged', async () => {
    const account = await createTestAccount(app.services.db, clock);
    const api = app.api.withApiKey(account.apiKey);
    expect((await api.post('/data/search', CHARGED)).status).toBe(200);
    const before = await balance(app, account);
    await revokeInDatabase(app, account.apiKeyId);
    const refused = await api.post('/data/search', CHARGED);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      success: false,
      code: 'INVALID_API_KEY',
      mensagem: 'Chave de API inválida ou revogada.',
    });
    expect(refused.body).not.toHaveProperty('results');
    const stats = await api.post('/data/search/stats', CHARGED);
    expect(stats.status).toBe(401);
    expect(await balance(app, account)).toBe(before);
  });

  it('never charge a session ended since it was looked up (a logout whose announcement was lost)', async () => {
    const account = await createTestAccount(app.services.db, clock);
    const api = app.api.withBearer(account.bearer);
    expect((await api.post('/data/search', CHARGED)).status).toBe(200);
    const before = await balance(app, account);
    // another process logged it out and Redis did not carry the news: only the database knows
    await app.services.db
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('account_id', '=', account.accountId)
      .execute();
    const refused = await api.post('/data/search', CHARGED);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      success: false,
      code: 'INVALID_TOKEN',
      mensagem: 'Token de acesso inválido ou revogado.',
    });
    expect((await api.post('/data/search/stats', CHARGED)).status).toBe(401);
    expect(await balance(app, account)).toBe(before);
  });

  it('forget a session at its end even while it is kept', async () => {
    const account = await createTestAccount(app.services.db, clock);
    const api = app.api.withBearer(account.bearer);
    expect((await api.get('/data/credits/balance')).status).toBe(200);
    clock.advance(30 * 24 * 3600 * 1000);
    const expired = await api.get('/data/credits/balance');
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('TOKEN_EXPIRED');
  });

  it('a Bearer-only route (keys, purchases, the account) always looks its session up afresh', async () => {
    const account = await createTestAccount(app.services.db, clock);
    const api = app.api.withBearer(account.bearer);
    expect((await api.post('/data/search', FREE)).status).toBe(200);
    await app.services.db
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('account_id', '=', account.accountId)
      .execute();
    // kept for searches (bounded by the TTL), never for managing the account
    expect((await api.post('/data/search', FREE)).status).toBe(200);
    const keys = await api.post('/api-keys', { name: 'depois do fim da sessão' });
    expect(keys.status).toBe(401);
    expect(keys.body.code).toBe('INVALID_TOKEN');
  });

  it('with CREDENTIAL_CACHE_SECONDS=0, every request looks its credential up', async () => {
    const uncached = await startTestApp({
      clock,
      database: app.database,
      env: { CREDENTIAL_CACHE_SECONDS: '0' },
    });
    try {
      const account = await createTestAccount(app.services.db, clock);
      const api = uncached.api.withApiKey(account.apiKey);
      expect((await api.post('/data/search', FREE)).status).toBe(200);
      await revokeInDatabase(app, account.apiKeyId);
      expect((await api.post('/data/search', FREE)).status).toBe(401);
    } finally {
      await uncached.close();
    }
  });
});

describe.skipIf(!TEST_REDIS_URL)('credential changes reach every API process (Redis pub/sub)', () => {
  let first: TestApp;
  let second: TestApp;
  let clock: ManualClock;
  const redisPrefix = `test:${randomBytes(4).toString('hex')}:`;

  beforeAll(async () => {
    clock = new ManualClock();
    // two processes of one deployment: same database, same Redis namespace
    first = await startTestApp({ clock, redis: true, overrides: { redisPrefix } });
    second = await startTestApp({ clock, redis: true, database: first.database, overrides: { redisPrefix } });
    await loadStockFixture(first.services.db);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('a key revoked through one process is refused by the other at once', async () => {
    const account = await createTestAccount(first.services.db, clock);
    const onSecond = second.api.withApiKey(account.apiKey);
    expect((await onSecond.post('/data/search', FREE)).status).toBe(200);
    const revoked = await first.api.withBearer(account.bearer).delete(`/api-keys/${account.apiKeyId}`);
    expect(revoked.status).toBe(200);
    await waitFor(
      'the other process to refuse the key',
      async () => (await onSecond.post('/data/search', FREE)).status,
      (status) => status === 401,
    );
  });

  it("a key's new limits apply in the other process at once", async () => {
    const account = await createTestAccount(first.services.db, clock);
    const onSecond = second.api.withApiKey(account.apiKey);
    const before = await onSecond.post('/data/search', FREE);
    expect(before.headers.get('ratelimit-policy')).toBe('1000000;w=60, 1000000;w=3600');
    const changed = await first.api
      .withBearer(account.bearer)
      .patch(`/api-keys/${account.apiKeyId}`, { rate_limit_per_minute: 7 });
    expect(changed.status).toBe(200);
    await waitFor(
      "the key's new limit in the other process",
      async () => (await onSecond.post('/data/search', FREE)).headers.get('ratelimit-policy'),
      (policy) => policy === '7;w=60, 1000000;w=60, 1000000;w=3600',
    );
  });

  it("an account's new plan, announced as the operator's command does, applies in the other process at once", async () => {
    const account = await createTestAccount(first.services.db, clock);
    const onSecond = second.api.withApiKey(account.apiKey);
    expect((await onSecond.post('/data/search', FREE)).headers.get('ratelimit-policy')).toBe(
      '1000000;w=60, 1000000;w=3600',
    );
    await changePlan(first.services.db, account.accountId, { rate_limit_per_hour: 500 }, clock.now());
    await first.services.credentials.changed({ accountId: account.accountId });
    await waitFor(
      "the account's new plan in the other process",
      async () => (await onSecond.post('/data/search', FREE)).headers.get('ratelimit-policy'),
      (policy) => policy === '1000000;w=60, 500;w=3600',
    );
  });

  it('a session ended through one process is refused by the other at once', async () => {
    const account = await createTestAccount(first.services.db, clock);
    const onSecond = second.api.withBearer(account.bearer);
    expect((await onSecond.get('/data/credits/balance')).status).toBe(200);
    expect((await first.api.withBearer(account.bearer).post('/auth/logout')).status).toBe(200);
    await waitFor(
      'the other process to refuse the ended session',
      async () => (await onSecond.get('/data/credits/balance')).status,
      (status) => status === 401,
    );
  });

  it('a process that keeps nothing (CREDENTIAL_CACHE_SECONDS=0) still announces its changes', async () => {
    const uncached = await startTestApp({
      clock,
      redis: true,
      database: first.database,
      env: { CREDENTIAL_CACHE_SECONDS: '0' },
      overrides: { redisPrefix },
    });
    try {
      const account = await createTestAccount(first.services.db, clock);
      const onSecond = second.api.withApiKey(account.apiKey);
      expect((await onSecond.post('/data/search', FREE)).status).toBe(200);
      const revoked = await uncached.api.withBearer(account.bearer).delete(`/api-keys/${account.apiKeyId}`);
      expect(revoked.status).toBe(200);
      await waitFor(
        'the other process to refuse the key',
        async () => (await onSecond.post('/data/search', FREE)).status,
        (status) => status === 401,
      );
    } finally {
      await uncached.close();
    }
  });

  it('a process that lost the channel forgets what it kept once it is back', async () => {
    const account = await createTestAccount(first.services.db, clock);
    const onSecond = second.api.withApiKey(account.apiKey);
    expect((await onSecond.post('/data/search', FREE)).status).toBe(200);
    // revoked while nobody could be told: the announcement is lost with the subscriptions
    await revokeInDatabase(first, account.apiKeyId);
    const admin = new Redis(TEST_REDIS_URL!);
    try {
      // only this deployment's listeners (other test files share the Redis server)
      const clients = (await admin.call('CLIENT', 'LIST')) as string;
      const ours = clients
        .split('\n')
        .filter((line) => line.includes(` name=${redisPrefix}credential-changes-listener `))
        .map((line) => /^id=(\d+)/.exec(line)![1]!);
      expect(ours).toHaveLength(2);
      for (const id of ours) await admin.call('CLIENT', 'KILL', 'ID', id);
    } finally {
      admin.disconnect();
    }
    await waitFor(
      'the other process to refuse the key',
      async () => (await onSecond.post('/data/search', FREE)).status,
      (status) => status === 401,
    );
  });
});

describe('a lookup under way when a change is announced', () => {
  it('is answered but not kept: it may have read the row before the change', async () => {
    const cache = new CredentialCache({
      ttlSeconds: 60,
      redis: null,
      redisPrefix: 'unused:',
      clock: new ManualClock(),
      logger: pino({ level: 'silent' }),
    });
    const key: KnownCredential = {
      principal: {
        accountId: '1',
        via: 'api_key',
        apiKeyId: '9',
        sessionId: null,
        rateLimitPerMinute: null,
        rateLimitPerHour: null,
        keyDailyCreditLimit: null,
        plan: { perMinute: 60, perHour: 1000, dailyCredits: null },
        scopes: ['search'],
        sellerId: null,
      },
      expiresAt: null,
      lastUsedAt: null,
    };
    let lookups = 0;
    let release!: () => void;
    const rowRead = new Promise<void>((resolve) => (release = resolve));
    const underWay = cache.recall('key:a', async () => {
      lookups += 1;
      await rowRead;
      return key;
    });
    await cache.changed({ apiKeyId: '9' });
    release();
    expect(await underWay).toBe(key);
    const lookUp = async () => {
      lookups += 1;
      return key;
    };
    await cache.recall('key:a', lookUp);
    expect(lookups).toBe(2);
    // and a lookup with nothing forgotten meanwhile is kept
    await cache.recall('key:a', lookUp);
    expect(lookups).toBe(2);
  });
});

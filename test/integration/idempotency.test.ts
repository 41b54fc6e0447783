import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { expectLedgerMatchesBalance } from '../helpers/ledger-check.js';
import { waitUntil } from '../helpers/wait-until.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import type { TestClient } from '../helpers/test-client.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';
import type { ErrorEnvelope } from '../../src/http/error-response.js';
import type { PurchaseAnswer, SearchAnswer, StatsAnswer } from '../../web/src/api-types.js';

/** A search's answer, or (refused) the envelope's code and message. */
type SearchBody = SearchAnswer & Partial<Pick<ErrorEnvelope, 'code' | 'mensagem'>>;
type StatsBody = StatsAnswer & Partial<Pick<ErrorEnvelope, 'code' | 'mensagem'>>;

let app: TestApp;
let clock: ManualClock;
let account: TestAccount;
let api: TestClient;

beforeAll(async () => {
  clock = new ManualClock(new Date('2026-11-22T12:00:00Z'));
  app = await startTestApp({ clock }); // purchases through the sandbox, the embedded default
  await loadStockFixture(app.services.db);
});
afterAll(() => app?.close());
beforeEach(async () => {
  account = await createTestAccount(app.services.db, clock);
  api = app.api.withApiKey(account.apiKey);
});

const withKey = (key: string) => ({ headers: { 'Idempotency-Key': key } });
const search = (body: unknown, key?: string, client = api) =>
  client.post<SearchBody>('/data/search', body, key === undefined ? {} : withKey(key));

async function charged(accountId = account.accountId): Promise<number> {
  const row = await app.services.db
    .selectFrom('searches')
    .select(sql<number>`coalesce(sum(credits_spent), 0)::int`.as('spent'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row.spent;
}

describe('Idempotency-Key', () => {
  it('replays the stored response to the same request: same body, same search_token, charged once', async () => {
    const key = randomUUID();
    const first = await search({ reference: '1K0 615 301 AA', per_page: 2 }, key);
    expect(first.status).toBe(200);
    expect(first.body.credits_spent).toBe(1);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    // the same parameters in another order, another credential of the same account
    const again = await search(
      { per_page: 2, reference: '1K0 615 301 AA' },
      key,
      app.api.withBearer(account.bearer),
    );
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.body.search_token).toBe(first.body.search_token);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('x-search-token-status')).toBe('none');
    expect(again.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(await charged()).toBe(1);
    await expectLedgerMatchesBalance(app.services.db, account.accountId, { spent: 1 });

    // without a key, the same search is a new one
    expect((await search({ reference: '1K0 615 301 AA', per_page: 2 })).body.credits_spent).toBe(1);
    expect(await charged()).toBe(2);
  });

  it('replays stats and free searches too', async () => {
    const key = randomUUID();
    const stats = await api.post<StatsBody>('/data/search/stats', { part_id: 3 }, withKey(key));
    expect(stats.status).toBe(200);
    const replay = await api.post<StatsBody>('/data/search/stats', { part_id: 3 }, withKey(key));
    expect(replay.body).toEqual(stats.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const none = await search({ reference: 'NADA-DISTO' }, 'nothing-found');
    expect(none.body).toMatchObject({ credits_spent: 0, total: 0 });
    expect(
      (await search({ reference: 'NADA-DISTO' }, 'nothing-found')).headers.get('idempotent-replayed'),
    ).toBe('true');
    expect(await charged()).toBe(stats.body.credits_spent);
  });

  it('scopes keys per account: another account with the same key runs its own request', async () => {
    const other = await createTestAccount(app.services.db, clock);
    const key = `shared-${randomUUID()}`;
    expect((await search({ part_id: 3 }, key)).body.credits_spent).toBe(1);
    const theirs = await search({ part_id: 7 }, key, app.api.withApiKey(other.apiKey));
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.credits_spent).toBe(1);
    expect(await charged(other.accountId)).toBe(1);
  });

  it('refuses the same key with other parameters or on another route: 422, nothing charged', async () => {
    const key = randomUUID();
    await search({ part_id: 3 }, key);
    const other = await search({ part_id: 7 }, key);
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ success: false, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(other.body.mensagem).toMatch(/Idempotency-Key já foi usada/);
    const stats = await api.post<StatsBody>('/data/search/stats', { part_id: 3 }, withKey(key));
    expect(stats.status).toBe(422);
    expect(await charged()).toBe(1);
  });

  it('refuses a malformed key with 400 before anything runs', async () => {
    for (const key of ['x'.repeat(256), 'chave-com-acentuação', 'tab\tkey']) {
      const res = await api.post<SearchBody>(
        '/data/search',
        { part_id: 3 },
        { headers: { 'Idempotency-Key': Buffer.from(key).toString('latin1') } },
      );
      expect(res.status, key).toBe(400);
      expect(res.body.code).toBe('INVALID_IDEMPOTENCY_KEY');
    }
    // present but empty
    const empty = await fetch(`${app.baseUrl}/data/search`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': account.apiKey, 'Idempotency-Key': '' },
      body: JSON.stringify({ part_id: 3 }),
    });
    expect(empty.status).toBe(400);
    expect((await search({ part_id: 3 }, 'k'.repeat(255))).status).toBe(200);
    expect(await charged()).toBe(1);
  });

  it('keeps a 4xx the request earned (402): the key replays it even after credits arrive', async () => {
    const poor = await createTestAccount(app.services.db, clock, { credits: 0 });
    const client = app.api.withApiKey(poor.apiKey);
    const refused = await search({ part_id: 3 }, 'poor-1', client);
    expect(refused.status).toBe(402);
    expect(refused.body.code).toBe('INSUFFICIENT_CREDITS');
    await app.services.db
      .updateTable('accounts')
      .set({ credits: 5 })
      .where('id', '=', poor.accountId)
      .execute();
    const replay = await search({ part_id: 3 }, 'poor-1', client);
    expect(replay.status).toBe(402);
    expect(replay.body).toEqual(refused.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await search({ part_id: 3 }, 'poor-2', client)).status).toBe(200);
  });

  it('does not keep a request refused before it ran (validation): the key stays free', async () => {
    const key = randomUUID();
    expect((await search({ per_page: 5 }, key)).status).toBe(400);
    const ran = await search({ part_id: 3 }, key);
    expect(ran.status).toBe(200);
    expect(ran.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a purchase with a key creates one pending payment however often it is sent', async () => {
    const bearer = app.api.withBearer(account.bearer);
    const key = randomUUID();
    const first = await bearer.post<PurchaseAnswer>(
      '/data/credits/purchase',
      { package_id: 'pro' },
      withKey(key),
    );
    expect(first.status).toBe(201);
    const again = await bearer.post<PurchaseAnswer>(
      '/data/credits/purchase',
      { package_id: 'pro' },
      withKey(key),
    );
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const payments = await app.services.db
      .selectFrom('payments')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('account_id', '=', account.accountId)
      .executeTakeFirstOrThrow();
    expect(payments.n).toBe(1);
    const unknown = await bearer.post('/data/credits/purchase', { package_id: 'nenhum' }, withKey('p-404'));
    expect(unknown.status).toBe(404);
    expect(
      (await bearer.post('/data/credits/purchase', { package_id: 'nenhum' }, withKey('p-404'))).headers.get(
        'idempotent-replayed',
      ),
    ).toBe('true');
  });

  it('does not keep a 5xx: the key is given up and a retry can succeed', async () => {
    // the same database behind an API whose payments are off (503), then one where they are on
    const off = await startTestApp({ clock, database: app.database, env: { PAYMENT_PROVIDER: 'none' } });
    try {
      const key = randomUUID();
      const failed = await off.api
        .withBearer(account.bearer)
        .post<ErrorEnvelope>('/data/credits/purchase', { package_id: 'pro' }, withKey(key));
      expect(failed.status).toBe(503);
      const retried = await app.api
        .withBearer(account.bearer)
        .post('/data/credits/purchase', { package_id: 'pro' }, withKey(key));
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      await off.close();
    }
  });

  it('forgets keys after 24 hours, and prunes them', async () => {
    const key = randomUUID();
    await search({ part_id: 3 }, key);
    clock.advance(24 * 3_600_000 + 1_000);
    try {
      const reused = await search({ part_id: 7 }, key);
      expect(reused.status).toBe(200);
      expect(reused.headers.get('idempotent-replayed')).toBeNull();
      await search({ part_id: 3 }, randomUUID());
      clock.advance(24 * 3_600_000 + 1_000);
      expect(await app.services.idempotency.prune()).toBeGreaterThanOrEqual(2);
      const left = await sql<{ n: number }>`select count(*)::int as n from idempotency_keys
        where account_id = ${account.accountId}`.execute(app.services.db);
      expect(left.rows[0]!.n).toBe(0);
    } finally {
      clock.advance(-2 * (24 * 3_600_000 + 1_000));
    }
  });

  it('declares the header, 409 and 422 on the three routes in the OpenAPI document', async () => {
    const doc = (
      await app.api.get<{ paths: Record<string, Record<string, Record<string, unknown>>> }>('/openapi.json')
    ).body;
    for (const path of ['/data/search', '/data/search/stats', '/data/credits/purchase']) {
      const op = doc.paths[path]!.post!;
      expect(op.parameters as unknown[], path).toContainEqual(
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
      );
      expect(Object.keys(op.responses as object)).toEqual(expect.arrayContaining(['409', '422']));
    }
    expect(JSON.stringify(doc.paths['/data/credits/history'])).not.toContain('Idempotency-Key');
  });
});

/** Requests held in flight, in their charge, by a row lock the test takes (real PostgreSQL only). */
describe.skipIf(!TEST_DATABASE_URL)('Idempotency-Key while the first request is in flight', () => {
  let locker: pg.Client;

  beforeEach(async () => {
    locker = new pg.Client({ connectionString: app.database.url! });
    await locker.connect();
  });

  // The API key's row: a charge waits for it (after the account's), the key's claim does not.
  const lockApiKey = async () => {
    await locker.query('begin');
    await locker.query('select 1 from api_keys where id = $1 for update', [account.apiKeyId]);
  };
  const waitingOnLocks = (n: number) =>
    waitUntil(async () => {
      // not on the locker's connection: inside its transaction pg_stat_activity would not change
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'
          and query like '%record_searches%'`.execute(app.services.db);
      return rows[0]!.n >= n;
    }, `${n} charge(s) waiting on the locked API key`);

  it('answers 409 to the same key while the first runs, then replays its response', async () => {
    const key = randomUUID();
    await lockApiKey();
    let first: Promise<Awaited<ReturnType<typeof search>>>;
    try {
      first = search({ part_id: 3 }, key);
      await waitingOnLocks(1);
      const second = await search({ part_id: 3 }, key);
      expect(second.status).toBe(409);
      expect(second.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(second.headers.get('retry-after')).toBe('1');
    } finally {
      await locker.query('commit');
      await locker.end();
    }
    const done = await first;
    expect(done.status).toBe(200);
    const third = await search({ part_id: 3 }, key);
    expect(third.body).toEqual(done.body);
    expect(await charged()).toBe(1);
  });

  it('an attempt that lost its key (lease passed, a retry took it over) rolls its charge back: one charge', async () => {
    const key = randomUUID();
    await lockApiKey();
    let first: Promise<Awaited<ReturnType<typeof search>>>;
    let second: Promise<Awaited<ReturnType<typeof search>>>;
    try {
      first = search({ part_id: 3 }, key);
      await waitingOnLocks(1);
      clock.advance(31_000); // the first attempt's lease has passed: as if its process had ended
      second = search({ part_id: 3 }, key);
      await waitingOnLocks(2);
    } finally {
      await locker.query('commit');
      await locker.end();
    }
    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe(409);
    expect(b.status).toBe(200);
    expect(b.body.credits_spent).toBe(1);
    expect(await charged()).toBe(1);
    await expectLedgerMatchesBalance(app.services.db, account.accountId, { spent: 1 });
    const replay = await search({ part_id: 3 }, key);
    expect(replay.body).toEqual(b.body);
  });
});

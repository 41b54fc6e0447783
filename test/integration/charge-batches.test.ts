import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import type { Database } from '../../src/db/database.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';

/**
 * charge_searches() (sql/0025) decides a batch in memory and writes the rows once. Its answers and
 * the rows it leaves must be exactly those of charging the same searches one after the other, each
 * on the rows as the previous ones left them: that sequential rule is modelled here in a few lines
 * and compared with the function on seeded random batches that cross limits, balances and midnight.
 */

interface Counter {
  day: string | null;
  spent: number;
}
interface State {
  credits: number;
  accountLimit: number | null;
  keyLimit: number | null;
  account: Counter;
  key: Counter;
}
interface Charge {
  cost: number;
  day: string;
}
interface Answer {
  status: string;
  credits: number | null;
  daily_limit: number | null;
  spent: number | null;
}

const today = (c: Counter, day: string) => (c.day === day ? c.spent : 0);

/** One charge as a lone charge_search() of sql/0006 decided it. */
function chargeAlone(s: State, { cost, day }: Charge): Answer {
  const keySpent = today(s.key, day);
  if (s.keyLimit !== null && keySpent + cost > s.keyLimit) {
    return { status: 'key_limit', credits: null, daily_limit: s.keyLimit, spent: keySpent };
  }
  const accountSpent = today(s.account, day);
  if (s.credits < cost) {
    return { status: 'insufficient', credits: s.credits, daily_limit: s.accountLimit, spent: accountSpent };
  }
  if (s.accountLimit !== null && accountSpent + cost > s.accountLimit) {
    return { status: 'account_limit', credits: s.credits, daily_limit: s.accountLimit, spent: accountSpent };
  }
  s.credits -= cost;
  s.account = { day, spent: accountSpent + cost };
  s.key = { day, spent: keySpent + cost };
  return { status: 'ok', credits: s.credits, daily_limit: s.accountLimit, spent: s.account.spent };
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAYS = ['2026-11-22', '2026-11-23'];

/** An account with these credits, no daily limits and nothing spent. */
const unlimited = (credits: number): State => ({
  credits,
  accountLimit: null,
  keyLimit: null,
  account: { day: null, spent: 0 },
  key: { day: null, spent: 0 },
});

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
});
afterAll(() => database.drop());

async function setUp(s: State) {
  const account = await createAccount(
    db,
    { email: `batch-${Math.random().toString(36).slice(2)}@example.com`, password: 'password-1234' },
    { scrypt: { N: 1024, r: 8, p: 1 } },
  );
  await db
    .updateTable('accounts')
    .set({
      credits: s.credits,
      daily_credit_limit: s.accountLimit,
      spent_day: s.account.day,
      spent_today: s.account.spent,
    })
    .where('id', '=', account.id)
    .execute();
  const key = await createApiKey(db, account.id, { name: 'lote' });
  await db
    .updateTable('api_keys')
    .set({ daily_credit_limit: s.keyLimit, spent_day: s.key.day, spent_today: s.key.spent })
    .where('id', '=', key.id)
    .execute();
  return { accountId: account.id, keyId: key.id };
}

const chargeRecord = (c: Charge, i: number) => ({
  cost: c.cost,
  day: c.day,
  now: `${c.day}T12:00:${String(i % 60).padStart(2, '0')}Z`,
  kind: i % 3 ? 'search' : 'stats',
  query: { reference: `R${i}` },
  summary: `referência R${i}`,
  total: 5,
  page: 1,
  per_page: 20,
  token_status: 'none',
});

const chargeSearches = async (accountId: string, keyId: string | null, charges: Charge[]) =>
  (
    await sql<Answer & { search_id: string | null }>`
      select * from charge_searches(${accountId}, ${keyId}, ${JSON.stringify(charges.map(chargeRecord))}::jsonb)`.execute(
      db,
    )
  ).rows;

describe('charge_searches(): a batch is charged as its charges one after the other', () => {
  it('on 40 seeded random batches across limits, balances and midnight', async () => {
    const next = random(20261123);
    const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
    for (let round = 0; round < 40; round++) {
      const initial: State = {
        credits: Math.floor(next() * 12),
        accountLimit: pick([null, 3, 6, 9]),
        keyLimit: pick([null, 2, 5]),
        account: { day: pick([null, ...DAYS]), spent: Math.floor(next() * 4) },
        key: { day: pick([null, ...DAYS]), spent: Math.floor(next() * 3) },
      };
      const withKey = next() < 0.8;
      const charges = Array.from({ length: 1 + Math.floor(next() * 12) }, () => ({
        cost: 1 + Math.floor(next() * 3),
        day: next() < 0.3 ? DAYS[0]! : DAYS[1]!,
      }));
      const model: State = structuredClone(initial);
      if (!withKey) model.keyLimit = null;
      const expected = charges.map((c) => chargeAlone(model, c));

      const { accountId, keyId } = await setUp(initial);
      const answers = await chargeSearches(accountId, withKey ? keyId : null, charges);
      const context = JSON.stringify({ round, initial, withKey, charges });
      expect(
        answers.map(({ search_id: _, ...a }) => a),
        context,
      ).toEqual(expected);

      const account = await db
        .selectFrom('accounts')
        .select(['credits', 'spent_today', sql<string | null>`spent_day::text`.as('spent_day')])
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow();
      expect(account.credits, context).toBe(model.credits);
      const taken = expected.filter((a) => a.status === 'ok').length;
      if (taken > 0) {
        expect(account.spent_today, context).toBe(model.account.spent);
        expect(account.spent_day, context).toBe(model.account.day);
      }
      const key = await db
        .selectFrom('api_keys')
        .select(['spent_today'])
        .where('id', '=', keyId)
        .executeTakeFirstOrThrow();
      if (withKey && taken > 0) expect(key.spent_today, context).toBe(model.key.spent);
      if (!withKey) expect(key.spent_today, context).toBe(initial.key.spent);

      // one history row and one ledger row per charge taken, each with the balance after it
      const ledger = await db
        .selectFrom('credit_ledger')
        .innerJoin('searches', 'searches.id', 'credit_ledger.search_id')
        .select(['credit_ledger.delta', 'credit_ledger.balance_after', 'searches.id', 'searches.query'])
        .where('credit_ledger.account_id', '=', accountId)
        .where('credit_ledger.kind', 'in', ['search', 'stats'])
        .orderBy('credit_ledger.id')
        .execute();
      const okAnswers = answers.filter((a) => a.status === 'ok');
      expect(
        ledger.map((l) => [l.id, l.balance_after]),
        context,
      ).toEqual(okAnswers.map((a) => [a.search_id, a.credits]));
      expect(
        ledger.map((l) => l.delta),
        context,
      ).toEqual(charges.filter((_, i) => expected[i]!.status === 'ok').map((c) => -c.cost));
      const searches = await db
        .selectFrom('searches')
        .select('id')
        .where('account_id', '=', accountId)
        .execute();
      expect(searches).toHaveLength(taken);
    }
  });

  it('refuses every charge of a revoked key and writes nothing', async () => {
    const { accountId, keyId } = await setUp(unlimited(10));
    await db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', keyId).execute();
    const answers = await chargeSearches(accountId, keyId, [
      { cost: 1, day: DAYS[1]! },
      { cost: 1, day: DAYS[1]! },
    ]);
    expect(answers.map((a) => a.status)).toEqual(['revoked_key', 'revoked_key']);
    const account = await db
      .selectFrom('accounts')
      .select('credits')
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(account.credits).toBe(10);
    const written = await db
      .selectFrom('searches')
      .select('id')
      .where('account_id', '=', accountId)
      .execute();
    expect(written).toHaveLength(0);
  });

  it('record_free_searches() (sql/0022) answers each free search with its own history row and the balance', async () => {
    const { accountId, keyId } = await setUp(unlimited(7));
    const records = ['A', 'B', 'C'].map((reference, i) => ({
      ...chargeRecord({ cost: 0, day: DAYS[1]! }, i),
      account_id: accountId,
      api_key_id: i === 1 ? null : keyId,
      query: { reference },
      token_status: i === 2 ? 'valid' : 'none',
    }));
    const answers = (
      await sql<{ search_id: string; credits: number }>`
        select * from record_free_searches(${JSON.stringify(records)}::jsonb)`.execute(db)
    ).rows;
    expect(answers.map((a) => a.credits)).toEqual([7, 7, 7]);
    const rows = await db
      .selectFrom('searches')
      .select(['id', 'api_key_id', 'query', 'credits_spent', 'token_status'])
      .where(
        'id',
        'in',
        answers.map((a) => a.search_id),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(answers.map((a) => byId.get(a.search_id))).toEqual([
      {
        id: answers[0]!.search_id,
        api_key_id: keyId,
        query: { reference: 'A' },
        credits_spent: 0,
        token_status: 'none',
      },
      {
        id: answers[1]!.search_id,
        api_key_id: null,
        query: { reference: 'B' },
        credits_spent: 0,
        token_status: 'none',
      },
      {
        id: answers[2]!.search_id,
        api_key_id: keyId,
        query: { reference: 'C' },
        credits_spent: 0,
        token_status: 'valid',
      },
    ]);
  });
});

/** A search as record_searches() (sql/0044) reads it: whose it is and what it costs, with the rest. */
const searchRecord = (accountId: string, keyId: string | null, c: Charge, i: number) => ({
  ...chargeRecord(c, i),
  account_id: accountId,
  api_key_id: keyId,
  session_id: null,
});

const recordSearches = async (records: ReturnType<typeof searchRecord>[], on: Database = db) =>
  (
    await sql<Answer & { search_id: string | null }>`
      select * from record_searches(${JSON.stringify(records)}::jsonb)`.execute(on)
  ).rows;

describe('record_searches(): every account in one batch, each as if alone', () => {
  it('on 20 seeded random batches of 4 accounts, charged and free searches interleaved', async () => {
    const next = random(20261207);
    const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
    for (let round = 0; round < 20; round++) {
      const accounts = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const initial: State = {
            credits: Math.floor(next() * 8),
            accountLimit: pick([null, 2, 4]),
            keyLimit: pick([null, 1, 3]),
            account: { day: pick([null, ...DAYS]), spent: Math.floor(next() * 2) },
            key: { day: pick([null, ...DAYS]), spent: Math.floor(next() * 2) },
          };
          return { initial, ids: await setUp(initial) };
        }),
      );
      // the same account's searches through its key and without one (two lanes), in any order
      const searches = Array.from({ length: 2 + Math.floor(next() * 24) }, () => ({
        account: Math.floor(next() * accounts.length),
        withKey: next() < 0.7,
        charge: { cost: next() < 0.3 ? 0 : 1 + Math.floor(next() * 2), day: DAYS[1]! },
      }));
      const context = JSON.stringify({ round, accounts: accounts.map((a) => a.initial), searches });

      // the model: each lane's charges one after the other on the account as the lanes before it
      // left it (a key's limit binds only the searches made with the key); a free search reports
      // the balance the batch left
      const models = accounts.map((a) => structuredClone(a.initial));
      const modelAnswers: (Answer | null)[] = searches.map(() => null);
      // lanes in the function's order: an account's searches without a key, then with it
      for (const withKey of [false, true]) {
        searches.forEach((s, i) => {
          if (s.charge.cost === 0 || s.withKey !== withKey) return;
          const model = models[s.account]!;
          const state: State = { ...model, keyLimit: withKey ? model.keyLimit : null };
          modelAnswers[i] = chargeAlone(state, s.charge);
          models[s.account] = { ...state, keyLimit: model.keyLimit, key: withKey ? state.key : model.key };
        });
      }
      searches.forEach((s, i) => {
        if (s.charge.cost === 0) {
          modelAnswers[i] = {
            status: 'ok',
            credits: models[s.account]!.credits,
            daily_limit: null,
            spent: null,
          };
        }
      });

      const answers = await recordSearches(
        searches.map((s, i) => {
          const { accountId, keyId } = accounts[s.account]!.ids;
          return searchRecord(accountId, s.withKey ? keyId : null, s.charge, i);
        }),
      );
      expect(
        answers.map(({ search_id: _, ...a }) => a),
        context,
      ).toEqual(modelAnswers);

      for (const [n, { ids }] of accounts.entries()) {
        const account = await db
          .selectFrom('accounts')
          .select('credits')
          .where('id', '=', ids.accountId)
          .executeTakeFirstOrThrow();
        expect(account.credits, context).toBe(models[n]!.credits);
        // a history row for every free search and every charge taken, each answer naming its own
        const written = await db
          .selectFrom('searches')
          .select(['id', 'query', 'credits_spent'])
          .where('account_id', '=', ids.accountId)
          .execute();
        const byId = (rows: [string, unknown, number][]) => rows.sort((a, b) => Number(a[0]) - Number(b[0]));
        const mine = searches
          .map((s, i) => ({ s, i, answer: answers[i]! }))
          .filter(({ s, answer }) => s.account === n && answer.status === 'ok');
        expect(byId(written.map((w) => [w.id, w.query, w.credits_spent])), context).toEqual(
          byId(mine.map(({ s, i, answer }) => [answer.search_id!, { reference: `R${i}` }, s.charge.cost])),
        );
      }
    }
  });

  it("refuses a free search whose account or key is gone, and writes the others' rows", async () => {
    const kept = await setUp(unlimited(5));
    const keyGone = await setUp(unlimited(5));
    const accountGone = await setUp(unlimited(5));
    await db.deleteFrom('api_keys').where('id', '=', keyGone.keyId).execute();
    await db.deleteFrom('accounts').where('id', '=', accountGone.accountId).execute();
    const free = { cost: 0, day: DAYS[1]! };
    const answers = await recordSearches([
      searchRecord(kept.accountId, kept.keyId, free, 0),
      searchRecord(keyGone.accountId, keyGone.keyId, free, 1),
      searchRecord(accountGone.accountId, null, free, 2),
      searchRecord(kept.accountId, kept.keyId, { cost: 1, day: DAYS[1]! }, 3),
      searchRecord(accountGone.accountId, accountGone.keyId, { cost: 1, day: DAYS[1]! }, 4),
    ]);
    expect(answers.map((a) => [a.status, a.credits])).toEqual([
      ['ok', 4],
      ['revoked_key', null],
      ['revoked_session', null],
      ['ok', 4],
      ['revoked_key', null],
    ]);
    const written = await db
      .selectFrom('searches')
      .select('id')
      .where('account_id', 'in', [kept.accountId, keyGone.accountId])
      .execute();
    expect(written.map((w) => w.id).sort()).toEqual([answers[0]!.search_id, answers[3]!.search_id].sort());
  });

  it.skipIf(!TEST_DATABASE_URL)(
    'batches that charge the same accounts in different orders, at once, never deadlock',
    async () => {
      const accounts = await Promise.all(Array.from({ length: 5 }, () => setUp(unlimited(1000))));
      const next = random(7);
      const clients = Array.from({ length: 8 }, () => new pg.Client({ connectionString: database.url! }));
      await Promise.all(clients.map((c) => c.connect()));
      try {
        let calls = 0;
        await Promise.all(
          clients.map(async (client) => {
            for (let round = 0; round < 15; round++) {
              // every account twice (through its key and without), shuffled
              const lanes = accounts.flatMap((a) => [a, { ...a, keyId: null }]);
              lanes.sort(() => next() - 0.5);
              const records = lanes.map((a, i) =>
                searchRecord(a.accountId, a.keyId, { cost: 1, day: DAYS[1]! }, i),
              );
              const answered = await client.query<{ status: string }>(
                'select * from record_searches($1::jsonb)',
                [JSON.stringify(records)],
              );
              expect(answered.rows.map((r) => r.status)).toEqual(records.map(() => 'ok'));
              calls++;
            }
          }),
        );
        expect(calls).toBe(8 * 15);
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
      for (const { accountId } of accounts) {
        const account = await db
          .selectFrom('accounts')
          .select('credits')
          .where('id', '=', accountId)
          .executeTakeFirstOrThrow();
        expect(account.credits).toBe(1000 - 8 * 15 * 2);
      }
    },
  );
});

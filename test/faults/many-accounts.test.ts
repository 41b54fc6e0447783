import { Writable } from 'node:stream';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, creditsOf, type TestAccount } from '../helpers/accounts-fixture.js';
import { expectLedgerMatchesBalance } from '../helpers/ledger-check.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';
import { waitUntil } from '../helpers/wait-until.js';
import type { SearchAnswer } from '../../web/src/api-types.js';

/**
 * Searches of many accounts at once share their batches (record_searches(), sql/0044): one
 * transaction writes every account's charges and free searches. Each account must still be charged
 * exactly what it was told, never past its balance, whatever the others in its batch did.
 */
describe('searches of many accounts at once', () => {
  let app: TestApp;
  let accounts: TestAccount[];
  const warnings: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n'))
        if (text.trim()) warnings.push((JSON.parse(text) as { msg: string }).msg);
      done();
    },
  });

  beforeAll(async () => {
    app = await startTestApp({ overrides: { logger: pino({ level: 'warn' }, sink) } });
    await loadStockFixture(app.services.db);
    accounts = await Promise.all(
      Array.from({ length: 6 }, () => createTestAccount(app.services.db, app.clock, { credits: 5 })),
    );
  });
  afterAll(() => app?.close());

  /**
   * Runs `during` while another connection holds the account's row (FOR UPDATE, as an account
   * being deleted or an operator's long transaction holds it), after `waiting` has started and
   * reached a lock wait; `during` ends the holding transaction itself.
   */
  async function withRowHeld(
    accountId: string,
    waiting: () => void,
    during: (holder: pg.Client) => Promise<void>,
  ): Promise<void> {
    const holder = new pg.Client({ connectionString: app.database.url! });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from accounts where id = $1 for update', [accountId]);
      waiting();
      await waitUntil(async () => {
        const { rows } = await holder.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return rows[0]!.n > 0;
      }, 'a search waiting for the held row');
      await during(holder);
    } finally {
      await holder.end();
    }
  }

  it('6 accounts with 5 credits, 20 searches each at 12 concurrent: 5 charged, the rest refused or free', async () => {
    const requests = accounts.flatMap((account, a) =>
      Array.from({ length: 20 }, (_, n) => ({ a, account, charged: n % 2 === 0, n })),
    );
    // interleaved, so that every batch holds several accounts' searches
    requests.sort((x, y) => x.n - y.n || x.a - y.a);
    const outcomes = accounts.map(() => ({ charged: 0, refused: 0, free: 0, other: [] as number[] }));
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const { a, account, charged, n } = requests[next++]!;
        const client = n % 4 === 0 ? app.api.withBearer(account.bearer) : app.api.withApiKey(account.apiKey);
        const res = await client.post<SearchAnswer>(
          '/data/search',
          charged ? { part_id: 7 } : { reference: `NADA-${a}-${n}` },
        );
        const outcome = outcomes[a]!;
        if (res.status === 200 && charged) outcome.charged += res.body.credits_spent;
        else if (res.status === 200) outcome.free += 1 - res.body.credits_spent;
        else if (res.status === 402) outcome.refused++;
        else outcome.other.push(res.status);
      }
    };
    await Promise.all(Array.from({ length: 12 }, worker));

    expect(outcomes).toEqual(accounts.map(() => ({ charged: 5, refused: 5, free: 10, other: [] })));
    for (const account of accounts) {
      expect(await creditsOf(app.services.db, account.accountId)).toBe(0);
      await expectLedgerMatchesBalance(app.services.db, account.accountId, { spent: 5 });
    }
  });

  it.skipIf(!TEST_DATABASE_URL)(
    "an account whose row another transaction holds waits alone: the others' searches are answered meanwhile",
    async () => {
      const [held, ...others] = await Promise.all(
        Array.from({ length: 3 }, () => createTestAccount(app.services.db, app.clock, { credits: 10 })),
      );
      const heldClient = app.api.withApiKey(held!.apiKey);
      let heldAnswered = false;
      let heldSearch!: ReturnType<typeof heldClient.post<SearchAnswer>>;
      await withRowHeld(
        held!.accountId,
        () => {
          heldSearch = heldClient
            .post<SearchAnswer>('/data/search', { part_id: 7 })
            .finally(() => (heldAnswered = true));
        },
        async (holder) => {
          const answers = await Promise.all(
            others.flatMap((account) =>
              [{ part_id: 7 }, { reference: 'NADA-HELD' }].map((body) =>
                app.api.withApiKey(account.apiKey).post<SearchAnswer>('/data/search', body),
              ),
            ),
          );
          expect(answers.map((a) => [a.status, a.body.credits_spent])).toEqual([
            [200, 1],
            [200, 0],
            [200, 1],
            [200, 0],
          ]);
          expect(heldAnswered).toBe(false);
          // the operator learns why some searches took half a second more
          expect(warnings).toContain(
            'searches waited for an account row another transaction holds: written account by account',
          );
          await holder.query('commit');
        },
      );
      const answer = await heldSearch;
      expect([answer.status, answer.body.credits_spent]).toEqual([200, 1]);
      await expectLedgerMatchesBalance(app.services.db, held!.accountId, { spent: 1 });
      for (const account of others) {
        await expectLedgerMatchesBalance(app.services.db, account.accountId, { spent: 1 });
      }
    },
  );

  it.skipIf(!TEST_DATABASE_URL)(
    'searches of an account deleted while they wait for its row are refused (401), never a 5xx',
    async () => {
      const doomed = await createTestAccount(app.services.db, app.clock, { credits: 10 });
      const client = app.api.withApiKey(doomed.apiKey);
      let free!: ReturnType<typeof client.post<SearchAnswer>>;
      await withRowHeld(
        doomed.accountId,
        // a free search alone: nothing else in its batch locks the account before its history row
        () => (free = client.post<SearchAnswer>('/data/search', { reference: 'NADA-DOOMED' })),
        async (holder) => {
          await holder.query('delete from accounts where id = $1', [doomed.accountId]);
          await holder.query('commit');
        },
      );
      const refused = (answer: Awaited<typeof free>) => [
        answer.status,
        (answer.body as { code?: string }).code,
      ];
      expect(refused(await free)).toEqual([401, 'INVALID_API_KEY']);
      // and a charge after it, its key still known to this process for a few seconds
      expect(refused(await client.post<SearchAnswer>('/data/search', { part_id: 7 }))).toEqual([
        401,
        'INVALID_API_KEY',
      ]);
    },
  );
});

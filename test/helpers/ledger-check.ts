import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../src/db/database.js';

/**
 * After load and faults, money must add up: the account's balance is the sum of its ledger, every
 * ledger row's balance_after follows from the ones before it, every charged search has exactly one
 * ledger row, and (when given) the credits the clients were told they spent are the ones debited.
 */
export async function expectLedgerMatchesBalance(
  db: Database,
  accountId: string,
  expected: { spent?: number } = {},
): Promise<void> {
  const { rows } = await sql<{
    credits: number;
    ledger_sum: number;
    searches_charged: number;
    search_debits: number;
    broken_chain: number;
  }>`
    select a.credits,
           (select coalesce(sum(delta), 0)::int from credit_ledger l where l.account_id = a.id) as ledger_sum,
           (select coalesce(sum(credits_spent), 0)::int from searches s where s.account_id = a.id) as searches_charged,
           (select coalesce(-sum(delta), 0)::int from credit_ledger l
             where l.account_id = a.id and l.search_id is not null) as search_debits,
           (select count(*)::int from (
              select balance_after, sum(delta) over (order by id) as running
                from credit_ledger l where l.account_id = a.id) chain
             where balance_after <> running) as broken_chain
      from accounts a where a.id = ${accountId}`.execute(db);
  const row = rows[0]!;
  expect(row.credits, 'balance = sum of the ledger').toBe(row.ledger_sum);
  expect(row.broken_chain, 'each balance_after follows from the rows before it').toBe(0);
  expect(row.search_debits, 'every charged search has its debit').toBe(row.searches_charged);
  if (expected.spent !== undefined) {
    expect(row.searches_charged, 'credits debited = credits the clients were told they spent').toBe(
      expected.spent,
    );
  }
}

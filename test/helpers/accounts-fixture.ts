import { createAccount, SIGNUP_CREDITS } from '../../src/accounts/accounts.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { openSession } from '../../src/accounts/sessions.js';
import type { Clock } from '../../src/clock.js';
import { moveCredits } from '../../src/credits/credit-movements.js';
import type { Database } from '../../src/db/database.js';

/** Cheap scrypt for test accounts: the cost parameters are not what these tests are about. */
const TEST_SCRYPT = { N: 1024, r: 8, p: 1 };

export interface TestAccount {
  accountId: string;
  email: string;
  apiKey: string;
  apiKeyId: string;
  bearer: string;
}

let counter = 0;

/** An account (50 credits, signup ledger row) with one API key and one bearer session. */
export async function createTestAccount(
  db: Database,
  clock: Clock,
  options: { credits?: number; keyDailyLimit?: number } = {},
): Promise<TestAccount> {
  const email = `user${++counter}.${process.pid}.${Date.now()}@example.com`;
  const account = await createAccount(
    db,
    { email, password: 'password-1234' },
    { scrypt: TEST_SCRYPT, now: clock.now() },
  );
  if (options.credits !== undefined) {
    // as an operator's adjustment would: the balance and its ledger row, so the two still add up
    await db.transaction().execute((trx) =>
      moveCredits(trx, {
        accountId: account.id,
        delta: options.credits! - SIGNUP_CREDITS,
        kind: 'adjustment',
        reason: 'test fixture',
        now: clock.now(),
      }),
    );
  }
  const key = await createApiKey(db, account.id, {
    name: 'test',
    ...(options.keyDailyLimit !== undefined ? { daily_credit_limit: options.keyDailyLimit } : {}),
  });
  const { token } = await openSession(db, account.id, clock);
  return { accountId: account.id, email, apiKey: key.key, apiKeyId: key.id, bearer: token };
}

/** The account's credit balance now. */
export async function creditsOf(db: Database, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select('credits')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return row.credits;
}

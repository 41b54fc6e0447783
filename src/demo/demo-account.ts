import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createAccount, normalizeEmail } from '../accounts/accounts.js';
import { createApiKey } from '../accounts/api-keys.js';
import { hashPassword, randomBase62, sha256 } from '../accounts/credentials.js';
import type { Database } from '../db/database.js';

export const DEMO_EMAIL = 'demo@pecas-demo.pt';
/** On top of the signup credits, so a person can try many searches. */
export const DEMO_EXTRA_CREDITS = 10_000;
export const DEMO_ACCOUNT_FILE = 'demo-account.json';

export interface DemoCredentials {
  email: string;
  password: string;
  apiKey: string;
}

function isCredentials(value: unknown): value is DemoCredentials {
  const v = value as Partial<DemoCredentials> | null;
  return typeof v?.email === 'string' && typeof v.password === 'string' && typeof v.apiKey === 'string';
}

function readSaved(file: string): DemoCredentials | null {
  if (!existsSync(file)) return null;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isCredentials(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

async function keyWorks(db: Database, apiKey: string): Promise<boolean> {
  const row = await db
    .selectFrom('api_keys')
    .select('id')
    .where('key_hash', '=', sha256(apiKey))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The demo account whose credentials `npm start` prints. Created once, with extra credits (an
 * `adjustment` ledger row in the same transaction), and kept in DATA_DIR/demo-account.json
 * (mode 600) so every later start prints the same working account. When the file is gone or its
 * key no longer works, the account gets a new password and key instead of a second account.
 */
export async function ensureDemoAccount(db: Database, dataDir: string): Promise<DemoCredentials> {
  const file = join(dataDir, DEMO_ACCOUNT_FILE);
  const saved = readSaved(file);
  if (saved && (await keyWorks(db, saved.apiKey))) return saved;

  const email = normalizeEmail(DEMO_EMAIL);
  const password = `demo-${randomBase62(12)}`;
  const apiKey = await db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('accounts')
      .select('id')
      .where(sql`lower(email)`, '=', email)
      .executeTakeFirst();
    let accountId: string;
    if (existing) {
      accountId = existing.id;
      const passwordHash = await hashPassword(password);
      await trx
        .updateTable('accounts')
        .set({ password_hash: passwordHash })
        .where('id', '=', accountId)
        .execute();
    } else {
      const account = await createAccount(
        db,
        { email, password, name: 'Conta de demonstração' },
        { within: trx },
      );
      accountId = account.id;
      const credited = await trx
        .updateTable('accounts')
        .set({ credits: sql`credits + ${DEMO_EXTRA_CREDITS}` })
        .where('id', '=', accountId)
        .returning('credits')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('credit_ledger')
        .values({
          account_id: accountId,
          kind: 'adjustment',
          delta: DEMO_EXTRA_CREDITS,
          balance_after: credited.credits,
        })
        .execute();
    }
    return (await createApiKey(trx, accountId, { name: 'Demonstração' })).key;
  });

  const credentials = { email, password, apiKey };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  chmodSync(file, 0o600); // the mode above applies only when the file is created

  return credentials;
}

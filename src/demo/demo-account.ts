import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import { createAccount, normalizeEmail } from '../accounts/accounts.js';
import { createApiKey } from '../accounts/api-keys.js';
import { hashPassword } from '../accounts/credentials.js';
import { randomBase62, sha256 } from '../crypto-text.js';
import { moveCredits } from '../credits/credit-movements.js';
import type { Database } from '../db/database.js';

export const DEMO_EMAIL = 'demo@pecas-demo.pt';
/** On top of the signup credits, so a person can try many searches. */
export const DEMO_EXTRA_CREDITS = 10_000;
export const DEMO_ACCOUNT_FILE = 'demo-account.json';

/**
 * Where the demo account of a database is kept, under DATA_DIR: demo-account.json for the
 * embedded database (the one DATA_DIR holds), and for a PostgreSQL (SEED_DEMO_DATA=true) a file
 * named after its server and database. Each database has its own demo account, with its own
 * password: seeding another database must not replace the file the embedded `npm start` prints.
 */
export function demoAccountFile(dataDir: string, databaseUrl: string | null): string {
  if (!databaseUrl) return join(dataDir, DEMO_ACCOUNT_FILE);
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username);
  const name = [url.hostname || 'local', url.port || '5432', database || 'postgres']
    .join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '_');
  return join(dataDir, `demo-account.postgres-${name}.json`);
}

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
 * `adjustment` ledger row in the same transaction), and kept in `file` (demoAccountFile, mode 600)
 * so every later start prints the same working account. When the file is gone or its key no longer
 * works, the account gets a new password and key instead of a second account.
 */
export async function ensureDemoAccount(db: Database, file: string): Promise<DemoCredentials> {
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
      await moveCredits(trx, {
        accountId,
        delta: DEMO_EXTRA_CREDITS,
        kind: 'adjustment',
        reason: 'conta de demonstração',
        now: new Date(),
      });
    }
    return (await createApiKey(trx, accountId, { name: 'Demonstração' })).key;
  });

  const credentials = { email, password, apiKey };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  chmodSync(file, 0o600); // the mode above applies only when the file is created

  return credentials;
}

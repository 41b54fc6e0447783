import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/accounts/credentials.js';
import type { Database } from '../../src/db/database.js';
import { DEMO_ACCOUNT_FILE, DEMO_EXTRA_CREDITS } from '../../src/demo/demo-account.js';
import { DEMO_VENDORS, prepareDemo, type DemoAccount } from '../../src/demo/prepare-demo.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import type { SearchAnswer } from '../../web/src/api-types.js';

const ITEMS = 1_500;

async function counts(db: Database) {
  const { rows } = await sql<Record<string, string>>`select
      (select count(*) from stock_items) as items,
      (select count(*) from vendors) as vendors,
      (select count(*) from accounts) as accounts,
      (select count(*) from api_keys) as keys,
      (select count(*) from credit_ledger) as ledger`.execute(db);
  return rows[0]!;
}

describe('prepareDemo', () => {
  let app: TestApp;
  let dataDir: string;
  let first: DemoAccount;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pss-demo-'));
    app = await startTestApp({ env: { DEMO_ITEMS: String(ITEMS), DATA_DIR: dataDir } });
    first = (await prepareDemo(app.services))!;
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads the demo stock into an empty database', async () => {
    const c = await counts(app.services.db);
    expect(Number(c.items)).toBe(ITEMS);
    expect(Number(c.vendors)).toBe(DEMO_VENDORS);
  });

  it('creates a demo account whose API key and password work, with extra credits', async () => {
    const principal = await app.services.authenticator.authenticate({ apiKey: first.apiKey }, 'either');
    const account = await app.services.db
      .selectFrom('accounts')
      .select(['id', 'email', 'password_hash', 'credits'])
      .where('id', '=', principal.accountId)
      .executeTakeFirstOrThrow();
    expect(account.email).toBe(first.email);
    expect(await verifyPassword(first.password, account.password_hash)).toBe(true);
    expect(account.credits).toBe(50 + DEMO_EXTRA_CREDITS);
    const ledger = await app.services.db
      .selectFrom('credit_ledger')
      .select(['kind', 'delta', 'balance_after'])
      .where('account_id', '=', account.id)
      .orderBy('id')
      .execute();
    expect(ledger).toEqual([
      { kind: 'signup', delta: 50, balance_after: 50 },
      { kind: 'adjustment', delta: DEMO_EXTRA_CREDITS, balance_after: 50 + DEMO_EXTRA_CREDITS },
    ]);
  });

  it('keeps the credentials in DATA_DIR, readable by the owner only', () => {
    const file = join(dataDir, DEMO_ACCOUNT_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved: unknown = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved).toEqual({ email: first.email, password: first.password, apiKey: first.apiKey });
  });

  it('prints a sample reference that finds several items through the API', async () => {
    const response = await app.api
      .withApiKey(first.apiKey)
      .post<SearchAnswer>('/data/search', { reference: first.sampleReference });
    expect(response.status).toBe(200);
    expect(response.body.total).toBeGreaterThanOrEqual(2);
  });

  it('is a no-op the second time: same account, nothing written', async () => {
    const before = await counts(app.services.db);
    const again = await prepareDemo(app.services);
    expect(again).toEqual(first);
    expect(await counts(app.services.db)).toEqual(before);
  });

  it('without its file, gives the same account a new password and key instead of a second account', async () => {
    unlinkSync(join(dataDir, DEMO_ACCOUNT_FILE));
    const before = await counts(app.services.db);
    const renewed = (await prepareDemo(app.services))!;
    expect(renewed.email).toBe(first.email);
    expect(renewed.apiKey).not.toBe(first.apiKey);
    const principal = await app.services.authenticator.authenticate({ apiKey: renewed.apiKey }, 'either');
    const { password_hash } = await app.services.db
      .selectFrom('accounts')
      .select('password_hash')
      .where('id', '=', principal.accountId)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(renewed.password, password_hash)).toBe(true);
    const after = await counts(app.services.db);
    expect(after.accounts).toBe(before.accounts);
    expect(after.items).toBe(before.items);
    expect(Number(after.keys)).toBe(Number(before.keys) + 1);
  });
});

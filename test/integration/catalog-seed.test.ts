import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCatalogRows } from '../../src/catalog/catalog-counts.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { startApiProcess } from '../helpers/api-process.js';
import { runScript } from '../helpers/run-script.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';

/** What the reference catalogs hold (src/catalog/seed.ts). */
const REFERENCE = { parts: 1_656, makes: 1_119, models: 20_524 };

const seed = (env: Record<string, string>) =>
  runScript('catalog-seed.ts', [], { LOG_LEVEL: 'silent', ...env });

async function accountsAndStock(db: Database) {
  const { rows } = await sql<{ accounts: string; items: string }>`select
      (select count(*) from accounts) as accounts, (select count(*) from stock_items) as items`.execute(db);
  return { accounts: Number(rows[0]!.accounts), items: Number(rows[0]!.items) };
}

// Each case starts a command or the API (tsx, migrations): slow on a loaded 2-core machine.
describe.skipIf(!TEST_DATABASE_URL)('npm run catalog:seed on a new PostgreSQL', { timeout: 180_000 }, () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url! };
  });
  afterAll(() => database?.drop());

  it('the API says at start that the catalogs are empty, naming the command', async () => {
    const api = await startApiProcess(env);
    try {
      const makes = await fetch(`${api.url}/data/catalog/vehicle-makes`);
      expect(((await makes.json()) as { total: number }).total).toBe(0);
      expect(api.output()).toContain(
        'Aviso: os catálogos de peças e de veículos estão vazios; carregue-os com npm run catalog:seed.',
      );
      const warning = api
        .output()
        .split('\n')
        .find((line) => line.includes('"level":40'));
      expect(JSON.parse(warning!)).toMatchObject({
        msg: expect.stringContaining('npm run catalog:seed') as string,
        catalog_parts: 0,
        vehicle_makes: 0,
      });
    } finally {
      expect(await api.stop()).toBe(0);
    }
  });

  it('loads the catalogs alone, says what it loaded, and a second run changes nothing and says so', async () => {
    const first = await seed(env);
    expect(first.stderr).not.toContain('Erro');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Catálogos de referência carregados na base de dados de DATABASE_URL em [\d.]+ s/,
    );
    expect(first.stdout).toMatch(/ {2}peças: +1656\n/);
    expect(first.stdout).toMatch(/ {2}marcas de veículos: +1119\n/);
    expect(first.stdout).toContain('Uma API já em execução passa a servi-los dentro de um minuto.');
    const loaded = await countCatalogRows(database.handle.db);
    expect(loaded).toMatchObject(REFERENCE);
    // no demo account, no stock: only the catalogs
    expect(await accountsAndStock(database.handle.db)).toEqual({ accounts: 0, items: 0 });

    const second = await seed(env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(
      /^Os catálogos já tinham dados na base de dados de DATABASE_URL: nada foi alterado\.\n/,
    );
    expect(second.stdout).toMatch(/ {2}peças: +1656\n/);
    expect(await countCatalogRows(database.handle.db)).toEqual(loaded);
  });

  it('then the API starts without the warning and serves the catalogs', async () => {
    const api = await startApiProcess(env);
    try {
      expect(api.output()).not.toContain('catalog:seed');
      const makes = await fetch(`${api.url}/data/catalog/vehicle-makes?per_page=1`);
      expect(((await makes.json()) as { total: number }).total).toBe(REFERENCE.makes);
    } finally {
      expect(await api.stop()).toBe(0);
    }
  });
});

describe('npm run catalog:seed on the embedded database', { timeout: 180_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pss-catalog-seed-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('loads the catalogs into DATA_DIR and writes no demo account', async () => {
    const run = await seed({ DATA_DIR: dataDir });
    expect(run.stderr).not.toContain('Erro');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Catálogos de referência carregados em ${dataDir}`);
    expect(readdirSync(dataDir).filter((name) => name.startsWith('demo-account'))).toEqual([]);
    // the command let go of the data directory: it opens again, with the catalogs in it
    expect(existsSync(join(dataDir, 'pglite.pid'))).toBe(false);
    const handle = await openDatabase({ url: null, dataDir });
    try {
      expect(await countCatalogRows(handle.db)).toMatchObject(REFERENCE);
      expect(await accountsAndStock(handle.db)).toEqual({ accounts: 0, items: 0 });
    } finally {
      await handle.close();
    }
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { runScript } from '../helpers/run-script.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';

/** `npm run data:generate -- …`, as a person runs it (without npm's own output). */
const dataGenerate = (args: string[], databaseUrl: string | undefined) =>
  runScript('data-generate.ts', args, databaseUrl ? { DATABASE_URL: databaseUrl } : {});

describe('npm run data:generate', () => {
  it('refuses to run without DATABASE_URL, saying so in Portuguese', async () => {
    const run = await dataGenerate(['--items', '10'], undefined);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('DATABASE_URL não está definido');
  });

  it('rejects a bad option value', async () => {
    const run = await dataGenerate(['--items', 'muitos'], 'postgres://127.0.0.1:1/nada');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'Erro: Opção --items <n>: "muitos" não é válido: indique um número inteiro de 1 a 100000000.\n',
    );
  });

  describe.skipIf(!TEST_DATABASE_URL)('against PostgreSQL', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database?.drop();
    });

    const stock = async () => {
      const { rows } = await sql<{ items: string; vendors: string; max_item: string }>`select
          (select count(*) from stock_items) as items,
          (select count(*) from vendors) as vendors,
          (select max(id) from stock_items) as max_item`.execute(database.handle.db);
      return rows[0]!;
    };

    it('loads the items through COPY and reports rows per second', async () => {
      const run = await dataGenerate(['--items', '1200', '--vendors', '40', '--seed', '3'], database.url!);
      expect(run.stderr).not.toContain('Erro');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/artigos em stock: +1200 /);
      expect(run.stdout).toMatch(/[0-9]+ linhas\/s/);
      expect(await stock()).toEqual({ items: '1200', vendors: '40', max_item: '1200' });
    });

    it('appends after the existing ids by default, and replaces the stock with --truncate', async () => {
      const appended = await dataGenerate(['--items', '300', '--vendors', '10'], database.url!);
      expect(appended.code).toBe(0);
      expect(await stock()).toEqual({ items: '1500', vendors: '50', max_item: '1500' });

      const replaced = await dataGenerate(['--items', '200', '--vendors', '10', '--truncate'], database.url!);
      expect(replaced.code).toBe(0);
      expect(await stock()).toEqual({ items: '200', vendors: '10', max_item: '200' });
    });
  });
});

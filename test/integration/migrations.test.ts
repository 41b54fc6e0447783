import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { MIGRATIONS_DIR, migrate } from '../../src/db/migrate.js';
import { TEST_DATABASE_URL, withDatabase } from '../helpers/test-env.js';

const name = `pss_mig_${randomBytes(4).toString('hex')}`;

async function admin(query: string) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL! });
  await client.connect();
  await client.query(query);
  await client.end();
}

describe.skipIf(!TEST_DATABASE_URL)('migrations on PostgreSQL', () => {
  afterAll(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

  it('apply once when four processes start at the same moment, then are a no-op', async () => {
    await admin(`CREATE DATABASE ${name}`);
    const url = withDatabase(TEST_DATABASE_URL!, name);
    const handles = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ url, poolSize: 2 })));
    const results = await Promise.all(handles.map((h) => migrate(h.db)));
    const appliedCounts = results.map((r) => r.applied.length);
    const total = results[0]!.applied.length + results[0]!.skipped.length;
    // exactly one process applied everything; the others waited on the lock and found it done
    expect(appliedCounts.filter((n) => n === total)).toHaveLength(1);
    expect(appliedCounts.filter((n) => n === 0)).toHaveLength(3);

    const again = await migrate(handles[0]!.db);
    expect(again.applied).toEqual([]);
    const recorded = await sql<{ n: string }>`select count(*)::text as n from schema_migrations`.execute(
      handles[0]!.db,
    );
    expect(Number(recorded.rows[0]!.n)).toBe(total);
    await Promise.all(handles.map((h) => h.close()));
  });
});

describe('migrations on PGlite', () => {
  it('apply in order and are idempotent', async () => {
    const handle = await openDatabase({ url: null, dataDir: null });
    const first = await migrate(handle.db);
    expect(first.applied.length).toBeGreaterThan(2);
    expect([...first.applied].sort()).toEqual(first.applied);
    const second = await migrate(handle.db);
    expect(second.applied).toEqual([]);
    expect(second.skipped).toEqual(first.applied);
    await handle.close();
  });

  it('run a file marked "outside a transaction" again from its first statement after a stop half-way', async () => {
    const handle = await openDatabase({ url: null, dataDir: null });
    await migrate(handle.db);
    const indexDef = async () =>
      (
        await sql<{ def: string }>`select indexdef as def from pg_indexes
          where tablename = 'stock_items' and indexname like 'stock_items_make_model%'`.execute(handle.db)
      ).rows.map((r) => r.def);
    const built = await indexDef();
    expect(built).toHaveLength(1);
    expect(built[0]).toContain('(make_norm, model_norm text_pattern_ops, price, id)');
    // stopped after the new index was built, before the old one was dropped and it was recorded
    await sql`delete from schema_migrations where name = '0023_make_model_price_order.sql'`.execute(
      handle.db,
    );
    await sql`create index stock_items_make_model_price_idx on stock_items (make_norm)`.execute(handle.db);
    const again = await migrate(handle.db);
    expect(again.applied).toEqual(['0023_make_model_price_order.sql']);
    expect(await indexDef()).toEqual(built);
    await handle.close();
  });
});

describe('migrations run outside a transaction', () => {
  // The split at line-ending ";" does not read SQL: what it could cut wrongly is refused up front.
  it.each([
    ['a quote', "CREATE INDEX CONCURRENTLY IF NOT EXISTS x ON stock_items (title) WHERE title <> 'a;\nb';"],
    ['a dollar quote', 'DO $$ BEGIN PERFORM 1;\nEND $$;'],
    ['a comment after a statement', 'DROP INDEX CONCURRENTLY IF EXISTS x; -- gone\nSELECT 1;'],
    ['two statements on a line', 'SELECT 1; SELECT 2;'],
  ])('refuses a file with %s before running any migration', async (_case, body) => {
    const dir = mkdtempSync(join(tmpdir(), 'pss-migrations-'));
    const handle = await openDatabase({ url: null, dataDir: null });
    try {
      cpSync(MIGRATIONS_DIR, dir, { recursive: true });
      writeFileSync(join(dir, '9999_unsafe.sql'), `-- migrate: outside a transaction\n${body}\n`);
      await expect(migrate(handle.db, dir)).rejects.toThrow(/9999_unsafe\.sql .*Escreva cada instrução/s);
      const tables = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
        where table_name = 'schema_migrations'`.execute(handle.db);
      expect(tables.rows[0]!.n).toBe(0);
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

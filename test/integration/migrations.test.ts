import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
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

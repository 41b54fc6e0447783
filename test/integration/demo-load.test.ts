import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type DatabaseHandle } from '../../src/db/database.js';
import { CONDITIONS } from '../../src/db/schema.js';
import { migrate } from '../../src/db/migrate.js';
import { DemoDataset, type DatasetOptions } from '../../src/demo/generator.js';
import { loadWithCopy } from '../../src/demo/load-copy.js';
import { loadWithInserts } from '../../src/demo/load-insert.js';
import { takenIds, type LoadSummary } from '../../src/demo/load-phases.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';

const OPTIONS: DatasetOptions = { seed: 11, items: 3_000, vendors: 300 };

async function count(db: Database, table: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(rows[0]!.n);
}

/** What the loaded tables hold, including the columns Postgres generates, as one digest. */
async function fingerprint(db: Database): Promise<string> {
  const { rows } = await sql<{ digest: string }>`select md5(
      (select string_agg(concat_ws('|', id, name, country_code, city, rating), ';' order by id) from vendors) ||
      (select string_agg(concat_ws('|', group_id, reference, reference_norm, brand, kind), ';' order by group_id, reference_norm) from xref_group_references) ||
      (select string_agg(concat_ws('|', id, vendor_id, reference, reference_norm, xref_group_id, part_id, title, description,
          condition, is_oem, is_aftermarket, price, currency, quantity, make_norm, model_norm, variant_norm,
          location_country_code, stock_search_vector(title, description)::text), ';' order by id) from stock_items) ||
      (select string_agg(concat_ws('|', item_id, reference, reference_norm, kind, brand), ';' order by item_id, reference_norm) from stock_item_references)
    ) as digest`.execute(db);
  return rows[0]!.digest;
}

async function expectLoaded(db: Database, summary: LoadSummary): Promise<void> {
  expect(await count(db, 'vendors')).toBe(summary.vendors);
  expect(await count(db, 'xref_groups')).toBe(summary.xrefGroups);
  expect(await count(db, 'xref_group_references')).toBe(summary.xrefGroupReferences);
  expect(await count(db, 'stock_items')).toBe(OPTIONS.items);
  expect(await count(db, 'stock_item_references')).toBe(summary.itemReferences);
  expect(summary.vendors).toBe(OPTIONS.vendors);
  expect(summary.items).toBe(OPTIONS.items);
  expect(summary.xrefGroupReferences).toBeGreaterThan(summary.xrefGroups);
  expect(summary.itemReferences).toBeGreaterThan(0);

  const conditions = await db.selectFrom('stock_items').select('condition').distinct().execute();
  expect(new Set(conditions.map((r) => r.condition))).toEqual(new Set(CONDITIONS));
  const countries = await db.selectFrom('vendors').select('country_code').distinct().execute();
  expect(countries.length).toBeGreaterThanOrEqual(15);

  // The generated columns are Postgres' own work on the loaded rows.
  const vag = await db
    .selectFrom('stock_items')
    .select(['reference', 'reference_norm', 'make_norm'])
    .where('vehicle_make', '=', 'Volkswagen')
    .where('is_oem', '=', true)
    .limit(20)
    .execute();
  expect(vag.length).toBeGreaterThan(0);
  for (const row of vag) {
    expect(row.reference).toMatch(/^[0-9][A-Z0-9]{2} [0-9]{3} [0-9]{3}( [A-Z]{1,2})?$/);
    expect(row.reference_norm).toBe(row.reference.replace(/ /g, ''));
    expect(row.make_norm).toBe('volkswagen');
  }
  const { rows: words } = await sql<{ n: string }>`select count(*) as n from stock_items
      where stock_search_vector(title, description) @@ to_tsquery('simple', 'travao')`.execute(db);
  expect(Number(words[0]!.n)).toBeGreaterThan(0);

  // Identity sequences moved past the explicit ids: an ordinary insert takes the next id.
  const vendor = await db
    .insertInto('vendors')
    .values({ name: 'Novo vendedor', country_code: 'PT' })
    .returning('id')
    .executeTakeFirstOrThrow();
  expect(Number(vendor.id)).toBe(summary.vendors + 1);
  await db.deleteFrom('vendors').where('id', '=', vendor.id).execute();
}

describe('demo data loaders', () => {
  let pglite: DatabaseHandle | undefined;
  let postgres: TestDatabase | undefined;
  let pgliteFingerprint: string | undefined;
  afterAll(async () => {
    await pglite?.close();
    await postgres?.drop();
  });

  it('INSERT loader fills the schema on embedded PGlite, and appends after the taken ids', async () => {
    pglite = await openDatabase({ url: null, dataDir: null });
    await migrate(pglite.db);
    const phases = new Set<string>();
    const summary = await loadWithInserts(pglite.db, new DemoDataset(OPTIONS), {
      batchSize: 700,
      onProgress: (phase, done, total) => {
        phases.add(phase);
        expect(done).toBeLessThanOrEqual(total);
      },
    });
    expect(phases.size).toBe(3);
    await expectLoaded(pglite.db, summary);
    pgliteFingerprint = await fingerprint(pglite.db);

    const after = await takenIds(pglite.db);
    expect(after.item).toBe(OPTIONS.items);
    const more = await loadWithInserts(
      pglite.db,
      new DemoDataset({ ...OPTIONS, items: 500, vendors: 20, after }),
    );
    expect(more.items).toBe(500);
    expect(await count(pglite.db, 'stock_items')).toBe(OPTIONS.items + 500);
    expect(await count(pglite.db, 'vendors')).toBe(OPTIONS.vendors + 20);
  });

  it.skipIf(!TEST_DATABASE_URL)(
    'COPY loader fills the schema on PostgreSQL with exactly the rows the INSERT loader wrote',
    async () => {
      postgres = await createTestDatabase();
      const db = postgres.handle.db;
      const summary = await loadWithCopy(postgres.handle.pool!, new DemoDataset(OPTIONS));
      await expectLoaded(db, summary);
      expect(await fingerprint(db)).toBe(pgliteFingerprint);

      // The secondary indexes dropped for the bulk load are all back.
      const { rows } = await sql<{ n: string }>`select count(*) as n from pg_indexes
          where schemaname = current_schema() and tablename = 'stock_items'`.execute(db);
      const template = await createTestDatabase();
      try {
        const { rows: expected } = await sql<{ n: string }>`select count(*) as n from pg_indexes
            where schemaname = current_schema() and tablename = 'stock_items'`.execute(template.handle.db);
        expect(rows[0]!.n).toBe(expected[0]!.n);
      } finally {
        await template.drop();
      }

      // --truncate semantics: the stock is replaced, not added to.
      const again = await loadWithCopy(postgres.handle.pool!, new DemoDataset(OPTIONS), { truncate: true });
      expect(again.items).toBe(OPTIONS.items);
      expect(await count(db, 'stock_items')).toBe(OPTIONS.items);
      expect(await fingerprint(db)).toBe(pgliteFingerprint);
    },
  );
});

import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { prepared } from '../../src/db/prepared-statements.js';
import type { StockQuery } from '../../src/search/engine.js';
import { PostgresEngine } from '../../src/search/postgres-engine.js';
import { FIXTURE_GROUPS, FIXTURE_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';

/** Every reference the fixture knows: own, associated and cross-reference groups' ones. */
const references = [
  ...new Set([
    ...FIXTURE_ITEMS.flatMap((i) => [i.reference, ...(i.refs ?? []).map((r) => r.reference)]),
    ...FIXTURE_GROUPS.flatMap((g) => g.refs.map((r) => r.reference)),
  ]),
];

interface PreparedRow {
  name: string;
  statement: string;
  generic_plans: string;
}

describe.skipIf(!TEST_DATABASE_URL)('prepared statements (PostgreSQL)', () => {
  let database: TestDatabase;
  const handles: DatabaseHandle[] = [];
  /** One connection, so pg_prepared_statements shows what the engine's statements left on it. */
  const open = async (preparedPerConnection?: number) => {
    const handle = await openDatabase({ url: database.url!, poolSize: 1, preparedPerConnection });
    handles.push(handle);
    return { handle, engine: new PostgresEngine(handle.db) };
  };
  const preparedOn = async (handle: DatabaseHandle) =>
    (
      await sql<PreparedRow>`select name, statement, generic_plans from pg_prepared_statements`.execute(
        handle.db,
      )
    ).rows;

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db);
    // Generic plans from the first execution, so the comparison below covers them for every value.
    const name = new URL(database.url!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: database.url! });
    await admin.connect();
    await admin.query(`alter database ${name} set plan_cache_mode = force_generic_plan`);
    await admin.end();
  });
  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await database?.drop();
  });

  it('reference searches reuse one generic plan per statement and answer as unprepared ones', async () => {
    const preparing = await open();
    const plain = await open(0);
    const queries: StockQuery[] = references.flatMap((reference) => [
      { reference },
      { reference, condition: 'usado_bom' },
      { reference, country: 'PT', priceMax: 200 },
    ]);
    for (const query of queries) {
      for (const page of [1, 2]) {
        const paging = { page, perPage: 2 };
        expect(await preparing.engine.search(query, paging)).toEqual(
          await plain.engine.search(query, paging),
        );
      }
      expect(await preparing.engine.stats(query)).toEqual(await plain.engine.stats(query));
    }
    const statements = await preparedOn(preparing.handle);
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) expect(s.name).toMatch(/^pss_/);
    // A statement per shape of query, whatever the values: the search of each of the three shapes
    // ran once per reference and page.
    const searches = statements.filter((s) => s.statement.includes('json_agg(x order by'));
    expect(searches).toHaveLength(3);
    for (const s of searches) expect(Number(s.generic_plans)).toBe(references.length * 2);
    expect(await preparedOn(plain.handle)).toEqual([]);
  });

  it('searches without a reference are planned for their values, never prepared', async () => {
    const { handle, engine } = await open();
    await engine.search({ vehicleMake: 'Volkswagen', priceMin: 10 }, { page: 1, perPage: 5 });
    await engine.search({ text: 'disco' }, { page: 1, perPage: 5 });
    await engine.stats({ partId: FIXTURE_ITEMS.find((i) => i.partId)!.partId! });
    expect(await preparedOn(handle)).toEqual([]);
  });

  it('a connection keeps at most the configured number of statements; the others run unprepared', async () => {
    const preparing = await open(2);
    const plain = await open(0);
    const reference = references[0]!;
    const queries: StockQuery[] = [
      { reference },
      { reference, condition: 'novo' },
      { reference, isOem: true },
      { reference, priceMin: 1 },
    ];
    for (const query of queries) {
      const paging = { page: 1, perPage: 20 };
      expect(await preparing.engine.search(query, paging)).toEqual(await plain.engine.search(query, paging));
      expect(await preparing.engine.stats(query)).toEqual(await plain.engine.stats(query));
    }
    expect(await preparedOn(preparing.handle)).toHaveLength(2);
  });

  it('a statement whose result type a migration changed is prepared again, not failed', async () => {
    const { handle } = await open();
    await sql`create table prepared_probe (id int primary key, amount int)`.execute(handle.db);
    await sql`insert into prepared_probe values (1, 7)`.execute(handle.db);
    const read = () => sql<{ amount: unknown }>`${prepared}select amount from prepared_probe where id = ${1}`;
    expect((await read().execute(handle.db)).rows).toEqual([{ amount: 7 }]);
    await sql`alter table prepared_probe alter column amount type text`.execute(handle.db);
    expect((await read().execute(handle.db)).rows).toEqual([{ amount: '7' }]);
    expect((await read().execute(handle.db)).rows).toEqual([{ amount: '7' }]);
    const statements = (await preparedOn(handle)).filter((s) => s.statement.includes('prepared_probe'));
    expect(statements).toHaveLength(2);
  });
});

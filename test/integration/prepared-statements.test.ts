import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { prepared } from '../../src/db/prepared-statements.js';
import type { StockQuery } from '../../src/search/engine.js';
import { stockQuery, type QueryFields } from '../../src/search/stock-query.js';
import { PostgresEngine } from '../../src/search/postgres/postgres-engine.js';
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

const isSearch = (s: PreparedRow) => s.statement.includes('json_agg(x order by');

describe.skipIf(!TEST_DATABASE_URL)('prepared statements (PostgreSQL)', () => {
  let database: TestDatabase;
  const handles: DatabaseHandle[] = [];
  /** One connection, so session settings stay and pg_prepared_statements shows what it holds. */
  const open = async (preparedPerConnection?: number) => {
    const handle = await openDatabase({ url: database.url!, poolSize: 1, preparedPerConnection });
    handles.push(handle);
    return handle;
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
  });
  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await database?.drop();
  });

  it('reference searches reuse one generic plan per statement and answer as custom-planned ones', async () => {
    const preparing = await open();
    // Generic plans from the first run on the preparing connection only, so every value below is
    // answered by them and compared with unprepared statements planned for their values.
    await sql`set plan_cache_mode = force_generic_plan`.execute(preparing.db);
    const plain = await open(0);
    const queries: StockQuery[] = references
      .flatMap((reference): QueryFields[] => [
        { reference },
        { reference, condition: 'usado_bom' },
        { reference, country: 'PT', priceMax: 200 },
      ])
      .map((fields) => stockQuery(fields));
    // With cached statistics the second page runs the page-only statement.
    const engines = [
      [new PostgresEngine(preparing.db), new PostgresEngine(plain.db)],
      [
        new PostgresEngine(preparing.db, { statsCacheSeconds: 60 }),
        new PostgresEngine(plain.db, { statsCacheSeconds: 60 }),
      ],
    ] as const;
    for (const [prepared, unprepared] of engines) {
      for (const query of queries) {
        for (const page of [1, 2]) {
          const paging = { page, perPage: 2 };
          expect(await prepared.search(query, paging)).toEqual(await unprepared.search(query, paging));
        }
        expect(await prepared.stats(query)).toEqual(await unprepared.stats(query));
      }
    }
    const statements = await preparedOn(preparing);
    for (const s of statements) expect(s.name).toMatch(/^pss_/);
    // A statement per shape of query and kind (page + statistics, page alone), whatever the values.
    const searches = statements.filter(isSearch);
    expect(searches).toHaveLength(6);
    expect(searches.every((s) => Number(s.generic_plans) > 0)).toBe(true);
    // the detailed statistics: the statement that reads the prices at the quartiles' ranks
    expect(statements.filter((s) => s.statement.includes("json_build_object('rank'"))).toHaveLength(3);
    expect(await preparedOn(plain)).toEqual([]);
  });

  it('pages of known make + model searches reuse one generic plan and answer as custom-planned ones', async () => {
    const preparing = await open();
    await sql`set plan_cache_mode = force_generic_plan`.execute(preparing.db);
    const plain = await open(0);
    const prepared = new PostgresEngine(preparing.db, { statsCacheSeconds: 60 });
    const unprepared = new PostgresEngine(plain.db, { statsCacheSeconds: 60 });
    const queries: StockQuery[] = (
      [
        { vehicleMake: 'Volkswagen', vehicleModel: 'Golf' },
        { vehicleMake: 'volkswagen', vehicleModel: 'golf vii' },
        { vehicleMake: 'Volkswagen', vehicleModel: 'Passat' },
        { vehicleMake: 'BMW', vehicleModel: 'Série 3' },
        { vehicleMake: 'Volkswagen', vehicleModel: 'Golf', priceMin: 20, priceMax: 60 },
        { vehicleMake: 'Volkswagen', vehicleModel: 'Passat', priceMin: 30, priceMax: 45.5 },
      ] as QueryFields[]
    ).map((fields) => stockQuery(fields));
    for (const query of queries) {
      for (const page of [1, 2, 3, 1, 2, 3]) {
        const paging = { page, perPage: 2 };
        expect(await prepared.search(query, paging)).toEqual(await unprepared.search(query, paging));
      }
    }
    const merged = (await preparedOn(preparing)).filter((s) => s.statement.includes('models(model, n) as'));
    // one statement per shape (with and without a price range), whatever the make, model and page
    expect(merged).toHaveLength(2);
    expect(merged.every((s) => Number(s.generic_plans) > 0)).toBe(true);
    // the first page of each, with its statistics, is planned for its values
    expect((await preparedOn(preparing)).filter(isSearch)).toHaveLength(2);
  });

  it('searches not driven by a reference alone are planned for their values, never prepared', async () => {
    const handle = await open();
    const engine = new PostgresEngine(handle.db);
    const item = FIXTURE_ITEMS.find((i) => i.make && i.model && i.partId)!;
    const reference = item.reference;
    const queries: StockQuery[] = (
      [
        { vehicleMake: item.make!, priceMin: 10 },
        { text: 'disco' },
        { partId: item.partId! },
        // A reference with a make and model, a part or a word: a generic plan may start from those.
        { reference, vehicleMake: item.make!, vehicleModel: item.model! },
        { reference, partId: item.partId! },
        { reference, text: 'disco' },
      ] as QueryFields[]
    ).map((fields) => stockQuery(fields));
    for (const query of queries) {
      await engine.search(query, { page: 1, perPage: 5 });
      await engine.stats(query);
    }
    expect(await preparedOn(handle)).toEqual([]);
  });

  it('a connection keeps at most the configured number of statements; the others run unprepared', async () => {
    const preparing = new PostgresEngine((await open(2)).db);
    const plain = new PostgresEngine((await open(0)).db);
    const reference = references[0]!;
    const queries: StockQuery[] = (
      [
        { reference },
        { reference, condition: 'novo' },
        { reference, isOem: true },
        { reference, priceMin: 1 },
      ] as QueryFields[]
    ).map((fields) => stockQuery(fields));
    for (const query of queries) {
      const paging = { page: 1, perPage: 20 };
      expect(await preparing.search(query, paging)).toEqual(await plain.search(query, paging));
      expect(await preparing.stats(query)).toEqual(await plain.stats(query));
    }
    expect(await preparedOn(handles.at(-2)!)).toHaveLength(2);
  });

  describe('a statement the server no longer holds as prepared is prepared again, not failed', () => {
    const read = () => sql<{ amount: unknown }>`${prepared}select amount from prepared_probe where id = ${1}`;
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await open();
      await sql`create table prepared_probe (id int primary key, amount int)`.execute(handle.db);
      await sql`insert into prepared_probe values (1, 7)`.execute(handle.db);
    });

    it('after a migration changed the type of a column it returns', async () => {
      expect((await read().execute(handle.db)).rows).toEqual([{ amount: 7 }]);
      await sql`alter table prepared_probe alter column amount type text`.execute(handle.db);
      expect((await read().execute(handle.db)).rows).toEqual([{ amount: '7' }]);
      expect((await read().execute(handle.db)).rows).toEqual([{ amount: '7' }]);
      const probes = (await preparedOn(handle)).filter((s) => s.statement.includes('prepared_probe'));
      expect(probes).toHaveLength(2);
    });

    it('after DEALLOCATE ALL (or a pooler that dropped it)', async () => {
      expect((await read().execute(handle.db)).rows).toHaveLength(1);
      await sql`deallocate all`.execute(handle.db);
      expect((await read().execute(handle.db)).rows).toHaveLength(1);
      expect((await read().execute(handle.db)).rows).toHaveLength(1);
    });

    it('inside a transaction, the error that aborted it is the one reported', async () => {
      await sql`deallocate all`.execute(handle.db);
      await expect(
        handle.db.transaction().execute(async (tx) => {
          await read().execute(tx);
        }),
      ).rejects.toMatchObject({ code: '26000' });
      expect((await read().execute(handle.db)).rows).toHaveLength(1);
    });
  });
});

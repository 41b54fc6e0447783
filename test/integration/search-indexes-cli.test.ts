import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_INDEXES, SEARCH_INDEXES } from '../../src/search/postgres/search-indexes.js';
import { startApiProcess } from '../helpers/api-process.js';
import { runScript } from '../helpers/run-script.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';

/**
 * npm run db:search-indexes: where OpenSearch answers the searches, the operator sets the Postgres
 * engine's search indexes aside and builds them again, exactly, before going back to it. (That the
 * engine answers the same without them is the engine contract's "search indexes set aside" target.)
 */
describe.skipIf(!TEST_DATABASE_URL)('npm run db:search-indexes', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  const run = (args: string[], env: Record<string, string> = {}) =>
    runScript('search-indexes.ts', args, { DATABASE_URL: database.url!, LOG_LEVEL: 'silent', ...env });
  /** as the API's environment would say it, for `drop` */
  const onOpenSearch = { SEARCH_ENGINE: 'opensearch', OPENSEARCH_URL: 'http://127.0.0.1:9' };
  /** name → definition of every index of the stock tables, valid or not */
  const indexes = async () =>
    Object.fromEntries(
      (
        await sql<{ name: string; definition: string; valid: boolean }>`
          select c.relname as name, pg_get_indexdef(c.oid) as definition, ix.indisvalid as valid
            from pg_index ix join pg_class c on c.oid = ix.indexrelid
           where ix.indrelid in ('stock_items'::regclass, 'stock_item_references'::regclass)`.execute(
          database.handle.db,
        )
      ).rows.map((r) => [r.name, `${r.definition}${r.valid ? '' : ' (invalid)'}`]),
    );
  let before: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db);
    before = await indexes();
  });
  afterAll(() => database?.drop());

  it('every index of the stock tables is a search index or one every engine needs', () => {
    expect(Object.keys(before).sort()).toEqual([...SEARCH_INDEXES, ...KEPT_INDEXES].sort());
  });

  it('says where each stands; drop refuses while SEARCH_ENGINE is postgres and touches nothing', async () => {
    const status = await run([]);
    expect(status.code).toBe(0);
    for (const name of SEARCH_INDEXES)
      expect(status.stdout).toMatch(new RegExp(`${name}: construído \\d+ MB`));

    const refused = await run(['drop']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/SEARCH_ENGINE não é opensearch/);
    expect(await indexes()).toEqual(before);

    const unknown = await run(['apagar']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^Erro: /);
  });

  it('drop sets the seven aside, the API on the Postgres engine warns, create builds them exactly as they were', async () => {
    const dropped = await run(['drop'], onOpenSearch);
    expect(dropped.stderr).toBe('');
    expect(dropped.code).toBe(0);
    expect(dropped.stdout).toMatch(/7 índices postos de parte/);
    expect(Object.keys(await indexes()).sort()).toEqual([...KEPT_INDEXES].sort());
    expect((await run([])).stdout).toMatch(/stock_items_search_vector_idx: posto de parte/);
    // again: nothing left to drop, nothing lost
    expect((await run(['drop'], onOpenSearch)).stdout).toMatch(/nada a pôr de parte/);

    // writes go on without them (a seller's new item)
    await sql`insert into stock_items (vendor_id, reference, title, condition, price, location_country_code)
              values (1, 'NOVA 1', 'Bomba de água', 'novo', 10, 'PT')`.execute(database.handle.db);

    const api = await startApiProcess({ DATABASE_URL: database.url!, SEARCH_ENGINE: 'postgres' });
    try {
      expect(api.output()).toMatch(/o motor Postgres não tem 7 dos seus índices de pesquisa/);
    } finally {
      await api.stop();
    }

    // going back to the Postgres engine: indexer:disable reminds the operator
    const disabled = await runScript('../indexer/disable.ts', [], {
      DATABASE_URL: database.url!,
      LOG_LEVEL: 'silent',
    });
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toMatch(
      /faltam 7 índices de pesquisa do motor Postgres; .*db:search-indexes -- create/,
    );

    const created = await run(['create']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/7 índices construídos/);
    expect(await indexes()).toEqual(before);
    const kept = await sql`select name from search_indexes_set_aside`.execute(database.handle.db);
    expect(kept.rows).toEqual([]);
  });

  it('create redoes a build that stopped half-way (an invalid index)', async () => {
    expect((await run(['drop'], onOpenSearch)).code).toBe(0);
    // what an interrupted CREATE INDEX CONCURRENTLY leaves: the index, marked invalid
    await sql
      .raw(`create index concurrently stock_items_price_idx on stock_items (price, id)`)
      .execute(database.handle.db);
    await sql`update pg_index set indisvalid = false where indexrelid = 'stock_items_price_idx'::regclass`.execute(
      database.handle.db,
    );
    expect((await run([])).stdout).toMatch(/stock_items_price_idx: inválido/);
    const created = await run(['create']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/7 índices construídos/);
    expect(await indexes()).toEqual(before);
  });

  it('an index dropped by hand has no definition kept: create says which, and fails', async () => {
    await sql`drop index stock_items_part_idx`.execute(database.handle.db);
    expect((await run([])).stdout).toMatch(/stock_items_part_idx: em falta/);
    const created = await run(['create']);
    expect(created.code).toBe(1);
    expect(created.stderr).toMatch(/não foram construídos: stock_items_part_idx/);
    await sql.raw(before.stock_items_part_idx!).execute(database.handle.db);
  });
});

import { RawNode, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchEngine, SearchResult } from '../../src/search/engine.js';
import { PostgresEngine, type PostgresEngineOptions } from '../../src/search/postgres/postgres-engine.js';
import { CONTRACT_ITEMS, FIXTURE_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL, type DatabaseKind } from '../helpers/test-env.js';
import { engineContract, type ContractTarget } from './engine-contract.js';
import { stockQuery } from '../../src/search/stock-query.js';
import { setAsideSearchIndexes } from '../../src/search/postgres/search-indexes.js';

/** The SQL text of a raw statement, nested fragments included, each value as `?`. */
const rawText = (node: RawNode): string =>
  node.sqlFragments
    .map((fragment, i) => {
      const parameter = node.parameters[i];
      return fragment + (parameter === undefined ? '' : RawNode.is(parameter) ? rawText(parameter) : '?');
    })
    .join('');

/** Records the statements run through the Kysely instance it is plugged into. */
class StatementLog implements KyselyPlugin {
  /** the SQL text of each statement (see rawText), or the kind of a query builder's */
  texts: string[] = [];
  transformQuery: KyselyPlugin['transformQuery'] = ({ node }) => {
    this.texts.push(RawNode.is(node) ? rawText(node) : node.kind);
    return node;
  };
  transformResult: KyselyPlugin['transformResult'] = ({ result }) => Promise.resolve(result);
}

async function startPostgres(
  options: PostgresEngineOptions,
  wrap: (engine: PostgresEngine, statements: StatementLog) => SearchEngine = (engine) => engine,
  items = CONTRACT_ITEMS,
  kind?: DatabaseKind,
  withoutSearchIndexes = false,
): Promise<ContractTarget> {
  const database = await createTestDatabase(kind);
  await loadStockFixture(database.handle.db, items);
  if (withoutSearchIndexes) await setAsideSearchIndexes(database.handle.db);
  const statements = new StatementLog();
  const engine = new PostgresEngine(database.handle.db.withPlugin(statements), options);
  return { engine: wrap(engine, statements), close: () => database.drop() };
}

/**
 * Every search asked twice and the second answer checked: the page of a query whose statistics are
 * cached, which the engine reads with statements of its own (page alone; for make + model, merged
 * from each model's ordered index entries). It must come from them alone: a page contradicting the
 * cached figures would be recomputed with the statistics (the materialized statement), which would
 * hide its error.
 */
function pagesOfKnownQueries(engine: PostgresEngine, statements: StatementLog): SearchEngine {
  return {
    name: engine.name,
    search: async (query, page) => {
      await engine.search(query, page);
      const before = statements.texts.length;
      const result = await engine.search(query, page);
      const recomputed = statements.texts.slice(before).filter((t) => t.includes('as materialized'));
      if (recomputed.length) throw new Error('the page of a known query recomputed its statistics');
      return result;
    },
    pageAfter: (query, page) => engine.pageAfter(query, page),
    stats: (query) => engine.stats(query),
    facets: (request) => engine.facets(request),
    ping: () => engine.ping(),
  };
}

engineContract('postgres', () => startPostgres({}));
// The embedded default, PGlite, runs the same engine: the same answers are required of it. (Without
// DATABASE_URL the run above is on PGlite already.)
if (TEST_DATABASE_URL) {
  engineContract('postgres on PGlite', () => startPostgres({}, undefined, CONTRACT_ITEMS, 'pglite'));
  engineContract('postgres on PGlite, pages of cached queries', () =>
    startPostgres({ statsCacheSeconds: 60 }, pagesOfKnownQueries, CONTRACT_ITEMS, 'pglite'),
  );
}
// Where OpenSearch answers, an operator may set the engine's search indexes aside
// (npm run db:search-indexes): the engine still answers exactly the same, only slower.
if (TEST_DATABASE_URL) {
  engineContract('postgres, search indexes set aside', () =>
    startPostgres({}, undefined, CONTRACT_ITEMS, 'postgres', true),
  );
}
engineContract('postgres, pages of cached queries', () =>
  startPostgres({ statsCacheSeconds: 60 }, pagesOfKnownQueries),
);
// "golf" covers three models, more than one: those pages come from the scan of the whole range.
engineContract('postgres, pages of cached queries, one model merged at most', () =>
  startPostgres({ statsCacheSeconds: 60, maxModelsMerged: 1 }, pagesOfKnownQueries),
);

describe('postgres: pages of known make + model searches', () => {
  // "golf\tviii" sorts between "golf" and "golf " like no real model: the range the model words
  // seek holds it, the whole-word test must leave it out on every path. Item 903 costs what item 3
  // (another model) costs: the id decides between them, across models.
  const extra = [
    { ...FIXTURE_ITEMS.find((i) => i.id === 8)!, id: 900, model: 'Golf\tVIII', price: 1 },
    { ...FIXTURE_ITEMS.find((i) => i.id === 8)!, id: 903, price: 55.5 },
  ];
  const golf = stockQuery({ vehicleMake: 'volkswagen', vehicleModel: 'golf' });
  const expected = [8, 2, 4, 3, 903, 1];
  let log: StatementLog;
  const variants: [string, PostgresEngineOptions, number][] = [
    ['page and statistics', {}, 1],
    // the range holds four models: golf, golf\tviii, golf vi and golf vii
    ['four models merged', { statsCacheSeconds: 60, maxModelsMerged: 4 }, 1],
    // one too many: the merge declines, the range is scanned
    ['three models at most', { statsCacheSeconds: 60, maxModelsMerged: 3 }, 2],
  ];
  describe.each(variants)('%s', (_name, options, statementsPerPage) => {
    let target: ContractTarget;
    beforeAll(async () => {
      target = await startPostgres(
        options,
        (engine, statements) => {
          log = statements;
          return options.statsCacheSeconds ? pagesOfKnownQueries(engine, statements) : engine;
        },
        [...FIXTURE_ITEMS, ...extra],
      );
    });
    afterAll(() => target?.close());

    it('finds golf, golf vi and golf vii only, in price then id order, in as many statements as expected', async () => {
      const before = log.texts.length;
      const result = await target.engine.search(golf, { page: 1, perPage: 20 });
      expect(result.items.map((i) => i.id)).toEqual(expected);
      expect(result.total).toBe(6);
      // the second (known) search alone, for the cached variants
      const ran = log.texts.length - before - (options.statsCacheSeconds ? 1 : 0);
      expect(ran).toBe(statementsPerPage);
    });
    it('pages across models', async () => {
      const pages = [];
      for (let page = 1; page <= 4; page++) {
        pages.push((await target.engine.search(golf, { page, perPage: 2 })).items.map((i) => i.id));
      }
      expect(pages).toEqual([[8, 2], [4, 3], [903, 1], []]);
    });
  });
});

describe('postgres: pages of known text searches', () => {
  // "travão" matches item 1 in title and description, item 5 and the 25 Passat pads in their title:
  // the rank puts item 1 first, price and id order the rest.
  const travao = stockQuery({ text: 'travão' });
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let log: StatementLog;
  let cached: PostgresEngine;
  let ranking: PostgresEngine;
  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db);
    log = new StatementLog();
    cached = new PostgresEngine(database.handle.db.withPlugin(log), { statsCacheSeconds: 60 });
    ranking = new PostgresEngine(database.handle.db);
  });
  afterAll(() => database?.drop());

  const ids = (result: SearchResult) => result.items.map((i) => i.id);
  /**
   * A statement that ranks the matching rows (stock_items as `si`): what a known order saves. A
   * page's own rows are scored too (`p`), a score per row of the page, for where the next one starts.
   */
  const RANKS_MATCHES = /ts_rank\(stock_search_vector\(si\./;
  /** Pages of 4 from the cached engine (the first one computes the order), as one list. */
  async function cachedPages(): Promise<{ ids: number[]; total: number; statements: string[] }> {
    const first = await cached.search(travao, { page: 1, perPage: 4 });
    const before = log.texts.length;
    const all = [...ids(first)];
    for (let page = 2; page <= Math.ceil(first.total / 4) + 1; page++) {
      const result = await cached.search(travao, { page, perPage: 4 });
      expect(result.total).toBe(first.total);
      all.push(...ids(result));
    }
    return { ids: all, total: first.total, statements: log.texts.slice(before) };
  }

  it('reads every later page in the order the first one ranked, without ranking again', async () => {
    const want = await ranking.search(travao, { page: 1, perPage: 100 });
    expect(want.total).toBe(27);
    expect(ids(want)[0]).toBe(1);
    const pages = await cachedPages();
    expect(pages.ids).toEqual(ids(want));
    // one statement for each of pages 2 to 7, none for page 8, past the end
    expect(pages.statements).toHaveLength(6);
    for (const text of pages.statements) {
      expect(text).not.toMatch(RANKS_MATCHES);
      expect(text).not.toMatch(/materialized/);
    }
  });

  it('a page asked while the order is being computed waits for it instead of ranking too', async () => {
    const pads = stockQuery({ text: 'pastilhas' });
    const before = log.texts.length;
    const [first, second] = await Promise.all([
      cached.search(pads, { page: 1, perPage: 4 }),
      cached.search(pads, { page: 2, perPage: 4 }),
    ]);
    const want = await ranking.search(pads, { page: 1, perPage: 8 });
    expect([...ids(first), ...ids(second)]).toEqual(ids(want));
    const ranked = log.texts.slice(before).filter((text) => RANKS_MATCHES.test(text));
    expect(ranked).toHaveLength(1);
  });

  it('counts an order in the memory its query takes', async () => {
    // Room for two entries as counted before their orders (1 KB each), not with them: travão's 27
    // ids and pastilhas' 25 (4 bytes each) push travão out.
    const small = new PostgresEngine(database.handle.db.withPlugin(log), {
      statsCacheSeconds: 60,
      knownQueriesBytes: 2 * 1024 + 150,
    });
    await small.search(travao, { page: 1, perPage: 4 });
    await small.search(stockQuery({ text: 'pastilhas' }), { page: 1, perPage: 4 });
    const before = log.texts.length;
    await small.search(travao, { page: 2, perPage: 4 });
    expect(log.texts.slice(before).filter((text) => text.includes('materialized'))).toHaveLength(1);
  });

  it('keeps ids past 32 bits exact', async () => {
    const clutch = {
      vendor_id: 1,
      reference: 'EMB1',
      title: 'Embraiagem reforçada',
      condition: 'novo' as const,
    };
    await database.handle.db
      .insertInto('stock_items')
      .values([
        { ...clutch, id: String(2 ** 32 + 5), price: 20, location_country_code: 'PT' },
        { ...clutch, id: String(2 ** 53 - 1), price: 30, location_country_code: 'PT' },
        { ...clutch, id: '9000', price: 10, location_country_code: 'PT' },
      ])
      .execute();
    const want = await ranking.search(stockQuery({ text: 'embraiagem' }), { page: 1, perPage: 3 });
    expect(ids(want)).toEqual([9_000, 2 ** 32 + 5, 2 ** 53 - 1]);
    const pages = ids(await cached.search(stockQuery({ text: 'embraiagem' }), { page: 1, perPage: 1 }));
    const before = log.texts.length;
    for (let page = 2; page <= 3; page++) {
      pages.push(...ids(await cached.search(stockQuery({ text: 'embraiagem' }), { page, perPage: 1 })));
    }
    expect(pages).toEqual(ids(want));
    // read in the order: a wrong id would not match and have the order computed again
    expect(log.texts.slice(before).filter((text) => text.includes('materialized'))).toEqual([]);
  });

  it('checks every filter, not only the words, on the rows read in order', async () => {
    const newPads = stockQuery({ text: 'pastilhas', condition: 'novo' });
    const first = await cached.search(newPads, { page: 1, perPage: 2 });
    const used = ids(await ranking.search(newPads, { page: 2, perPage: 2 }))[0]!;
    await database.handle.db
      .updateTable('stock_items')
      .set({ condition: 'usado_bom' })
      .where('id', '=', String(used))
      .execute();
    const second = await cached.search(newPads, { page: 2, perPage: 2 });
    expect(ids(second)).not.toContain(used);
    expect(second.total).toBe(first.total - 1);
    expect(ids(second)).toEqual(ids(await ranking.search(newPads, { page: 2, perPage: 2 })));
  });

  it('never shows an item that stopped matching or is gone: the order is computed again', async () => {
    await cached.search(travao, { page: 1, perPage: 4 });
    // the first and a later page's item: one no longer says "travão", the other is sold
    await database.handle.db
      .updateTable('stock_items')
      .set({ title: 'Disco ventilado', description: '' })
      .where('id', '=', '1')
      .execute();
    await database.handle.db.deleteFrom('stock_items').where('id', '=', '5').execute();
    const want = await ranking.search(travao, { page: 1, perPage: 100 });
    expect(want.total).toBe(25);
    const pages = await cachedPages();
    expect(pages.total).toBe(25);
    expect(pages.ids).toEqual(ids(want));
    expect(pages.ids).not.toContain(1);
    expect(pages.ids).not.toContain(5);
  });
});

/**
 * Holds the answer of the first statement matching each hold (after it ran: its snapshot is taken)
 * until released, so that concurrent searches can be made to finish in a chosen order.
 */
class StatementGate implements KyselyPlugin {
  private readonly waiting: { match: (text: string) => boolean; reached: () => void; gate: Promise<void> }[] =
    [];
  private readonly held = new Map<string, { reached: () => void; gate: Promise<void> }>();
  hold(match: (text: string) => boolean): { reached: Promise<void>; release: () => void } {
    let reached!: () => void;
    let release!: () => void;
    const hold = { reached: new Promise<void>((r) => (reached = r)), release: () => release() };
    this.waiting.push({ match, reached, gate: new Promise<void>((r) => (release = r)) });
    return hold;
  }
  transformQuery: KyselyPlugin['transformQuery'] = ({ node, queryId }) => {
    const text = RawNode.is(node) ? rawText(node) : node.kind;
    const index = this.waiting.findIndex((w) => w.match(text));
    if (index >= 0) this.held.set(queryId.queryId, this.waiting.splice(index, 1)[0]!);
    return node;
  };
  transformResult: KyselyPlugin['transformResult'] = async ({ result, queryId }) => {
    const hold = this.held.get(queryId.queryId);
    if (hold) {
      hold.reached();
      await hold.gate;
    }
    return result;
  };
}

// Statements held open while others run need a pool: PGlite has one connection.
describe.skipIf(!TEST_DATABASE_URL)('postgres: concurrent recomputations of a known text search', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db);
  });
  afterAll(() => database?.drop());

  it('an older computation finishing last never pairs its order with newer statistics', async () => {
    const travao = stockQuery({ text: 'travão' });
    const gate = new StatementGate();
    const engine = new PostgresEngine(database.handle.db.withPlugin(gate), { statsCacheSeconds: 60 });
    const ranking = new PostgresEngine(database.handle.db);
    const ids = (result: SearchResult) => result.items.map((i) => i.id);
    const before = ids(await ranking.search(travao, { page: 1, perPage: 100 }));
    await engine.search(travao, { page: 1, perPage: 4 });
    // two items sold, on pages 2 and 3: both pages disagree with the figures
    await database.handle.db
      .deleteFrom('stock_items')
      .where('id', 'in', [String(before[4]), String(before[8])])
      .execute();
    const pageThree = gate.hold((text) => text.includes('with ordinality'));
    const firstRecompute = gate.hold((text) => text.includes('as materialized'));
    const q = engine.search(travao, { page: 3, perPage: 4 });
    const p = engine.search(travao, { page: 2, perPage: 4 });
    await firstRecompute.reached; // page 2's recomputation has read the stock without the new item
    await database.handle.db
      .insertInto('stock_items')
      .values({
        id: '5000',
        vendor_id: 1,
        reference: 'NEW1',
        title: 'Travão travão travão',
        description: 'travão',
        condition: 'novo',
        price: 1,
        location_country_code: 'PT',
      })
      .execute();
    pageThree.release(); // page 3 disagrees too and recomputes, with the new item
    await q;
    firstRecompute.release(); // the older computation answers last
    await p;
    const want = ids(await ranking.search(travao, { page: 1, perPage: 100 }));
    expect(want).toContain(5000);
    const seen: number[] = [];
    for (let page = 1; page <= Math.ceil(want.length / 4); page++) {
      seen.push(...ids(await engine.search(travao, { page, perPage: 4 })));
    }
    expect(seen).toEqual(want);
  });
});

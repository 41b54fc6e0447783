import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchEngine } from '../../src/search/engine.js';
import { PostgresEngine, type PostgresEngineOptions } from '../../src/search/postgres-engine.js';
import { FIXTURE_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { engineContract, type ContractTarget } from './engine-contract.js';

/** Counts the statements run through the Kysely instance it is plugged into. */
class StatementCounter implements KyselyPlugin {
  count = 0;
  transformQuery: KyselyPlugin['transformQuery'] = ({ node }) => {
    this.count++;
    return node;
  };
  transformResult: KyselyPlugin['transformResult'] = ({ result }) => Promise.resolve(result);
}

async function startPostgres(
  options: PostgresEngineOptions,
  wrap: (engine: PostgresEngine, statements: StatementCounter) => SearchEngine = (engine) => engine,
  items = FIXTURE_ITEMS,
): Promise<ContractTarget> {
  const database = await createTestDatabase();
  await loadStockFixture(database.handle.db, items);
  const statements = new StatementCounter();
  const engine = new PostgresEngine(database.handle.db.withPlugin(statements), options);
  return { engine: wrap(engine, statements), close: () => database.drop() };
}

/**
 * Every search asked twice and the second answer checked: the page of a query whose statistics are
 * cached, which the engine reads with a statement of its own (page alone; for make + model, merged
 * from each model's ordered index entries). That page must come from that one statement: a page
 * contradicting the cached figures would be recomputed with them, which would hide its error.
 */
function pagesOfKnownQueries(engine: PostgresEngine, statements: StatementCounter): SearchEngine {
  return {
    name: engine.name,
    search: async (query, page) => {
      await engine.search(query, page);
      const before = statements.count;
      const result = await engine.search(query, page);
      if (statements.count - before !== 1) {
        throw new Error(`the page of a known query took ${statements.count - before} statements, not 1`);
      }
      return result;
    },
    stats: (query) => engine.stats(query),
    facets: (request) => engine.facets(request),
    ping: () => engine.ping(),
  };
}

engineContract('postgres', () => startPostgres({}));
engineContract('postgres, pages of cached queries', () =>
  startPostgres({ statsCacheSeconds: 60 }, pagesOfKnownQueries),
);
// "golf" covers three models, more than one: those pages come from the scan of the whole range.
engineContract('postgres, pages of cached queries, one model merged at most', () =>
  startPostgres({ statsCacheSeconds: 60, maxModelsMerged: 1 }, pagesOfKnownQueries),
);

describe('postgres: a model word followed by a control character is not a whole word', () => {
  // "golf\tviii" sorts between "golf" and "golf " like no real model: the range the model words
  // seek holds it, the whole-word test must leave it out on every path.
  const tabbed = { ...FIXTURE_ITEMS.find((i) => i.id === 8)!, id: 900, model: 'Golf\tVIII', price: 1 };
  const targets: [string, () => Promise<ContractTarget>][] = [
    ['page and statistics', () => startPostgres({}, undefined, [...FIXTURE_ITEMS, tabbed])],
    [
      'models merged',
      () => startPostgres({ statsCacheSeconds: 60 }, pagesOfKnownQueries, [...FIXTURE_ITEMS, tabbed]),
    ],
    [
      'range scanned',
      () =>
        startPostgres({ statsCacheSeconds: 60, maxModelsMerged: 1 }, pagesOfKnownQueries, [
          ...FIXTURE_ITEMS,
          tabbed,
        ]),
    ],
  ];
  describe.each(targets)('%s', (_name, start) => {
    let target: ContractTarget;
    beforeAll(async () => {
      target = await start();
    });
    afterAll(() => target?.close());
    it('"golf" finds golf, golf vi and golf vii only', async () => {
      const result = await target.engine.search(
        { vehicleMake: 'volkswagen', vehicleModel: 'golf' },
        { page: 1, perPage: 20 },
      );
      expect(result.items.map((i) => i.id)).toEqual([8, 2, 4, 3, 1]);
      expect(result.total).toBe(5);
    });
  });
});

import { describe } from 'vitest';
import {
  OpenSearchEngine,
  type OpenSearchEngineOptions,
} from '../../src/search/opensearch/opensearch-engine.js';
import { useIndexedDatabase } from '../helpers/indexed-database.js';
import { CONTRACT_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { engineContract } from './engine-contract.js';

/**
 * The contract against a live cluster: OPENSEARCH_URL=http://localhost:9200 npm run test:opensearch.
 * A throwaway alias (and index) per run, loaded with the fixture through the reindex code.
 */
const OPENSEARCH_URL = process.env.OPENSEARCH_URL;

describe.skipIf(!OPENSEARCH_URL)('OpenSearch (OPENSEARCH_URL)', () => {
  /** The fixture's database and index, built once for both runs below. */
  const indexed = useIndexedDatabase('contract', (db) => loadStockFixture(db, CONTRACT_ITEMS));
  const target = (options: Omit<OpenSearchEngineOptions, 'index'>) => () =>
    Promise.resolve({
      engine: new OpenSearchEngine(indexed.client, { index: indexed.alias, ...options }),
      close: () => Promise.resolve(),
    });

  engineContract('opensearch', target({}));
  // Every result set of more than two items takes the statistics' second round trip (the
  // histogram as range aggregations, the quartiles from the prices at their ranks): the same
  // answers are required of it.
  engineContract('opensearch, statistics in two round trips', target({ pricesReadAtOnce: 2 }));
  // Statistics kept: every later page of a query is asked beside them, uncounted and with its
  // total counted apart (as a result set of more than COUNTED_APART_ABOVE items is).
  engineContract(
    'opensearch, pages beside kept statistics, counted apart',
    target({ statsCacheSeconds: 60, countedApartAbove: 0 }),
  );
  // Statistics kept, and every later page read after the highest hit the query's pages reached
  // before it (as a jump deep into a result set is), the items up to it counted in the same msearch.
  engineContract(
    'opensearch, pages beside kept statistics, read after a hit reached',
    target({ statsCacheSeconds: 60, fromHitAtOffset: 0 }),
  );
});

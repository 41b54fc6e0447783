import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverChanges } from '../../indexer/delivery.js';
import { IndexerMetrics } from '../../indexer/metrics.js';
import { rebuildIndex } from '../../indexer/rebuild.js';
import { tellMissingLanguages } from '../../src/stock/listing-languages-backfill.js';
import { indexMismatches } from '../helpers/index-contents.js';
import { clusterClient, dropAlias, TEST_OPENSEARCH_URL, uniqueAlias } from '../helpers/opensearch.js';
import { languageListing, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';

/**
 * npm run stock:languages on a live index: the items it tells are owed to the index, and once the
 * worker's delivery writes them each is analysed in its own language only, as a feed's would be.
 */
describe.skipIf(!TEST_OPENSEARCH_URL || !TEST_DATABASE_URL)(
  'languages told after the index was built',
  () => {
    let database: TestDatabase;
    let client: Client;
    const alias = uniqueAlias('languages');
    const db = () => database.handle.db;

    beforeAll(async () => {
      database = await createTestDatabase();
      await loadStockFixture(db(), [
        languageListing(1, 'Filtros de óleo novos para motor diesel', 'Peça original na caixa'),
        languageListing(2, 'New oil filters for diesel engines', 'Genuine part, boxed'),
      ]);
      client = clusterClient();
      await rebuildIndex(db(), client, alias);
    });
    afterAll(async () => {
      await dropAlias(client, alias);
      await client?.close();
      await database?.drop();
    });

    const holding = async (field: string) => {
      const answer = await client.search({
        index: alias,
        body: { query: { exists: { field } }, _source: false, size: 10 },
      });
      return answer.body.hits.hits.map((h) => Number(h._id)).sort();
    };

    it('writes each told item again, in its language only, and the index agrees with PostgreSQL', async () => {
      // written before items carried a language: analysed in all six
      for (const language of ['pt', 'en', 'de'])
        expect(await holding(`text_lang.${language}`)).toEqual([1, 2]);

      expect(await tellMissingLanguages(db())).toMatchObject({ told: { pt: 1, en: 1 }, skipped: 0 });
      // each row has moved past its document: owed, not yet written
      const behind = await indexMismatches(db(), client, alias);
      expect(behind).toHaveLength(2);
      behind.forEach((found, i) =>
        expect(found).toMatch(new RegExp(`^${i + 1}: version \\d+ \\(row \\d+\\)$`)),
      );
      const owed = await sql<{ item_id: string; version: string }>`
      select item_id, version from search_outbox where done_at is null order by item_id`.execute(db());
      const outcome = await deliverChanges(
        {
          db: db(),
          client,
          alias,
          metrics: new IndexerMetrics(),
          logger: pino({ level: 'silent' }),
          rejectedRetrySeconds: 600,
        },
        owed.rows.map((r) => ({ itemId: Number(r.item_id), version: Number(r.version), deleted: false })),
      );
      expect(outcome).toMatchObject({ acknowledged: 2, failed: [], rejected: [] });
      await client.indices.refresh({ index: alias });

      expect(await holding('text_lang.pt')).toEqual([1]);
      expect(await holding('text_lang.en')).toEqual([2]);
      expect(await holding('text_lang.de')).toEqual([]);
      expect(await indexMismatches(db(), client, alias)).toEqual([]);
    });
  },
);

import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { SearchEngine } from './engine.js';
import { connectionWarnings } from './opensearch/cluster-client.js';
import { OpenSearchEngine } from './opensearch/opensearch-engine.js';
import { PostgresEngine } from './postgres/postgres-engine.js';

export function createSearchEngine(config: Config, db: Database, logger: Logger): SearchEngine {
  if (config.searchEngine === 'opensearch') {
    // loadConfig refuses SEARCH_ENGINE=opensearch without OPENSEARCH_URL.
    const connection = config.opensearch!;
    for (const warning of connectionWarnings(connection)) logger.warn({ nodes: connection.nodes }, warning);
    return OpenSearchEngine.connect(connection, {
      index: config.opensearchIndex,
      budgetMs: config.opensearchTimeoutMs,
      statsCacheSeconds: config.statsCacheSeconds,
    });
  }
  return new PostgresEngine(db, { statsCacheSeconds: config.statsCacheSeconds });
}

import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { SearchEngine } from './engine.js';
import { OpenSearchEngine } from './opensearch/opensearch-engine.js';
import { PostgresEngine } from './postgres/postgres-engine.js';

export function createSearchEngine(config: Config, db: Database, _logger: Logger): SearchEngine {
  if (config.searchEngine === 'opensearch') {
    // loadConfig refuses SEARCH_ENGINE=opensearch without OPENSEARCH_URL.
    return OpenSearchEngine.connect(config.opensearchUrl!, {
      index: config.opensearchIndex,
      budgetMs: config.opensearchTimeoutMs,
      statsCacheSeconds: config.statsCacheSeconds,
    });
  }
  return new PostgresEngine(db, { statsCacheSeconds: config.statsCacheSeconds });
}

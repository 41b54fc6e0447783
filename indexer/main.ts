/**
 * npm run indexer: keeps the OpenSearch index in step with PostgreSQL (indexer/indexer.ts). Not
 * needed in the embedded shape (Postgres engine). SIGTERM or SIGINT finish the bulk requests in
 * hand and stop.
 */
import { Command } from 'commander';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { IndexerStartAborted, startIndexer, type IndexerHandle } from './indexer.js';

const options = new Command('indexer')
  .description('keeps the OpenSearch index in step with PostgreSQL')
  .option('--metrics-port <port>', 'port of GET /metrics and GET /ready (0: any free port)', '9464')
  .option('--log-every <seconds>', 'seconds between progress log lines', '15')
  .parse()
  .opts<{ metricsPort: string; logEvery: string }>();

const config = loadConfig();
const logger = createLogger(config).child({ component: 'indexer' });
if (!config.databaseUrl || !config.redisUrl || !config.opensearch) {
  logger.fatal('the indexer needs DATABASE_URL, REDIS_URL and OPENSEARCH_URL');
  process.exit(1);
}

const aborting = new AbortController();
let indexer: IndexerHandle | null = null;
let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'indexer stopping: finishing the bulk requests in hand');
  aborting.abort();
  await indexer?.stop();
  logger.info('indexer stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  indexer = await startIndexer(config, logger, {
    metricsPort: Number(options.metricsPort),
    logEveryMs: Number(options.logEvery) * 1000,
    signal: aborting.signal,
  });
} catch (error) {
  if (!(error instanceof IndexerStartAborted)) {
    logger.fatal({ err: error }, 'the indexer could not start');
    process.exit(1);
  }
}

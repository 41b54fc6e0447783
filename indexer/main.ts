/**
 * The indexer: keeps the OpenSearch index in step with Postgres (npm run indexer).
 * Relay: outbox rows → BullMQ jobs. Worker: jobs → current rows → bulk writes with external
 * versions. Not needed in the embedded shape (Postgres engine).
 */
import { Command } from 'commander';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createLogger } from '../src/logger.js';
import { createClusterClient } from './cluster.js';
import { aliasTargets, liveMappingVersion, mappingVersion } from './index-admin.js';
import { IndexerMetrics, serveMetrics } from './metrics.js';
import { enableOutbox, outboxLag, pruneOutbox } from './outbox.js';
import { RebuildRequests } from './rebuild-requests.js';
import { OutboxRelay } from './relay.js';
import { BatchIndexer, createIndexQueue, startWorker } from './worker.js';

const options = new Command('indexer')
  .description('keeps the OpenSearch index in step with Postgres')
  .option('--metrics-port <port>', 'port of the /metrics endpoint (0: any free port)', '9464')
  .option('--log-every <seconds>', 'seconds between progress log lines', '15')
  .parse()
  .opts<{ metricsPort: string; logEvery: string }>();
const METRICS_PORT = Number(options.metricsPort);
const LOG_EVERY_MS = Number(options.logEvery) * 1000;

const config = loadConfig();
const logger = createLogger(config).child({ component: 'indexer' });
if (!config.databaseUrl || !config.redisUrl || !config.opensearchUrl) {
  logger.fatal('the indexer needs DATABASE_URL, REDIS_URL and OPENSEARCH_URL');
  process.exit(1);
}
const handle = await openDatabase({ url: config.databaseUrl, poolSize: 5 });
await migrate(handle.db);
await enableOutbox(handle.db);

const url = new URL(config.redisUrl);
const connection = {
  host: url.hostname,
  port: Number(url.port || 6379),
  username: url.username || undefined,
  password: url.password || undefined,
  tls: url.protocol === 'rediss:' ? {} : undefined,
  // BullMQ workers block on Redis; they must not give up on a slow command.
  maxRetriesPerRequest: null,
};
const client = createClusterClient(config.opensearchUrl);
// Served from the start, so an operator (and the health check) sees the process during a first build.
const metrics = new IndexerMetrics().withProcessMetrics();
const server = await serveMetrics(metrics, METRICS_PORT);
const rebuilds = new RebuildRequests(handle.db, client, config.opensearchIndex, logger);
await waitForIndex();

/**
 * Before following changes there must be an index behind the alias, of the current mapping. A
 * missing one (first start) is built now, as `npm run reindex` would; one of an older mapping is
 * rebuilt in the background while it keeps answering. A cluster that is not there yet, or a build
 * that fails, is tried again (with a growing delay) rather than ending the process.
 */
async function waitForIndex(): Promise<void> {
  const alias = config.opensearchIndex;
  for (let attempt = 0; ; attempt++) {
    try {
      const live = await liveMappingVersion(client, alias);
      if (live === null || live < mappingVersion()) {
        logger.info(
          { alias, liveMapping: live, mapping: mappingVersion() },
          live === null
            ? 'no index behind the alias yet: building it'
            : 'index of an older mapping: rebuilding it',
        );
        await rebuilds.request();
      }
      if (live !== null) return;
      await rebuilds.check();
      if ((await aliasTargets(client, alias)).length > 0) return;
    } catch (error) {
      logger.warn({ err: error }, 'cluster not ready for the indexer yet; trying again');
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(1_000 * 2 ** attempt, 30_000)));
  }
}
// One queue per alias: deployments (or test runs) sharing a Redis stay apart.
const prefix = `bull-${config.opensearchIndex}`;
const queue = createIndexQueue(connection, { prefix });
const batcher = new BatchIndexer(handle.db, client, config.opensearchIndex, metrics, logger);
const worker = startWorker(connection, batcher, logger, { prefix });
const relay = new OutboxRelay(handle.db, queue, metrics, logger);
await relay.start(handle.pool);
const rebuildCheck = setInterval(() => {
  rebuilds.check().catch((error: unknown) => logger.error({ err: error }, 'rebuild failed; retrying'));
}, 5_000);

const report = setInterval(() => {
  void (async () => {
    try {
      const lag = await outboxLag(handle.db);
      metrics.setOutboxLag(lag);
      await pruneOutbox(handle.db, 3_600);
      logger.info(
        {
          outboxPending: lag.pending,
          outboxLagSeconds: Math.round(lag.oldestSeconds),
          docsPerSecond: metrics.rate(),
          indexed: metrics.indexed,
          deleted: metrics.deleted,
          failures: metrics.failed,
        },
        'indexer progress',
      );
    } catch (error) {
      logger.warn({ err: error }, 'could not read the outbox lag');
    }
  })();
}, LOG_EVERY_MS);
const address = server.address();
logger.info(
  {
    index: config.opensearchIndex,
    metricsPort: typeof address === 'object' && address ? address.port : METRICS_PORT,
  },
  'indexer started',
);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'indexer stopping: finishing the batch in hand');
  clearInterval(report);
  clearInterval(rebuildCheck);
  await relay.stop();
  // close() waits for the jobs in progress, whose batch is then flushed.
  const closing = worker.close();
  await batcher.flush();
  await closing;
  await queue.close();
  await client.close();
  await handle.close();
  server.close();
  logger.info('indexer stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

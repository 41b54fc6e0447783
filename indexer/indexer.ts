import type { Config } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import type { Logger } from '../src/logger.js';
import { startMetricsServer, type MetricsServer } from '../src/metrics/metrics-server.js';
import { connectionWarnings } from '../src/search/opensearch/cluster-client.js';
import { createClusterClient } from './cluster.js';
import type { DeliveryTarget } from './delivery.js';
import { addMissingFields, aliasTargets, liveMappingVersion, mappingVersion } from './index-admin.js';
import { createIndexQueue, redisConnection } from './index-queue.js';
import { IndexerMetrics } from './metrics.js';
import { enableOutbox, ledgerStatus, pruneOutbox } from './outbox.js';
import { RebuildRequests } from './rebuild-requests.js';
import { checkRedisPolicy } from './redis-policy.js';
import { OutboxRelay } from './relay.js';
import { VerificationSweep } from './verify/sweep.js';
import { differenceCount, verifyIndex } from './verify/verify-index.js';
import { repairInBackground } from './verify/repair.js';
import { startWorker } from './worker.js';

/** Settled outbox rows are kept this long (lag figures; a rebuild holds back those it replays). */
const KEEP_SETTLED_SECONDS = 3_600;
const REBUILD_CHECK_MS = 5_000;
/** How the indexer's connections show in pg_stat_activity. */
export const INDEXER_APPLICATION_NAME = 'pss-indexer';

export interface IndexerOptions {
  /** the /metrics and /ready port (0: any free port); null: none */
  metricsPort: number | null;
  metricsHost?: string;
  /** milliseconds between progress log lines (and ledger figures) */
  logEveryMs: number;
  /** aborting it during the first build ends the start (startIndexer rejects with IndexerStartAborted) */
  signal?: AbortSignal;
}

export class IndexerStartAborted extends Error {
  constructor() {
    super('the indexer was stopped before it had started');
    this.name = 'IndexerStartAborted';
  }
}

export interface IndexerHandle {
  metrics: IndexerMetrics;
  /** http://host:port of /metrics and /ready; null without a port */
  metricsUrl: string | null;
  /** finishes the bulk requests in hand, then closes everything it opened */
  stop(): Promise<void>;
}

/**
 * The indexer keeps the OpenSearch index in step with PostgreSQL: the relay hands owed changes from
 * the outbox to the queue, the worker writes them and settles them, a sweep verifies the index
 * range by range and repairs what differs, and rebuilds run when asked for. Requires DATABASE_URL,
 * REDIS_URL and OPENSEARCH_URL in `config`. Resolves once it follows changes (after building the
 * index on a first start).
 */
export async function startIndexer(
  config: Config,
  logger: Logger,
  options: IndexerOptions,
): Promise<IndexerHandle> {
  if (!config.databaseUrl || !config.redisUrl || !config.opensearch) {
    throw new Error('the indexer needs DATABASE_URL, REDIS_URL and OPENSEARCH_URL');
  }
  const settings = config.indexer;
  const alias = config.opensearchIndex;
  const closers: (() => Promise<unknown>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };
  let stopping = false;
  try {
    const handle: DatabaseHandle = await openDatabase({
      url: config.databaseUrl,
      poolSize: 6,
      applicationName: INDEXER_APPLICATION_NAME,
    });
    closers.push(() => handle.close());
    const db = handle.db;
    const migrated = await migrate(db);
    logger.info(
      { applied: migrated.applied.length, alreadyApplied: migrated.skipped.length },
      migrated.applied.length
        ? `database migrations applied: ${migrated.applied.join(', ')}`
        : 'database schema up to date',
    );
    await enableOutbox(db);

    for (const warning of connectionWarnings(config.opensearch)) {
      logger.warn({ nodes: config.opensearch.nodes }, warning);
    }
    const client = createClusterClient(config.opensearch);
    closers.push(() => client.close());
    // Served from the start, so an operator (and a health check) sees the process during a first build.
    const metrics = new IndexerMetrics().withProcessMetrics();
    let indexBuilt = false;
    let server: MetricsServer | null = null;
    if (options.metricsPort !== null) {
      server = await startMetricsServer(
        metrics,
        options.metricsPort,
        options.metricsHost ?? '0.0.0.0',
        async () => {
          const ledger = await ledgerStatus(db);
          metrics.setLedger(ledger);
          const behind = ledger.oldestSeconds > settings.readyMaxLagSeconds;
          return {
            ready: indexBuilt && !behind,
            body: {
              ready: indexBuilt && !behind,
              index_built: indexBuilt,
              owed_changes: ledger.owed,
              rejected_documents: ledger.rejected,
              oldest_unconfirmed_seconds: Math.round(ledger.oldestSeconds * 10) / 10,
              max_lag_seconds: settings.readyMaxLagSeconds,
            },
          };
        },
      );
      const closing = server;
      closers.push(() => closing.close());
    }
    metrics.setRedisNoEviction(await checkRedisPolicy(config.redisUrl, logger));

    const target: DeliveryTarget = {
      db,
      client,
      alias,
      metrics,
      logger,
      rejectedRetrySeconds: settings.rejectedRetrySeconds,
    };
    const verifyAfterRebuild = async () => {
      const report = await verifyIndex(db, client, alias, {
        rangeSize: settings.sweepRangeSize,
        onDifferences: (found) =>
          repairInBackground(db, metrics, logger, found, 'verification after a rebuild'),
      });
      logger.info(
        { differences: differenceCount(report), counts: report.counts, seconds: report.seconds },
        'the new index was verified against PostgreSQL',
      );
    };
    const rebuilds = new RebuildRequests(db, client, alias, logger, {
      afterRebuild: verifyAfterRebuild,
      rejectedRetrySeconds: settings.rejectedRetrySeconds,
      shards: config.opensearchShards,
      logEveryMs: options.logEveryMs,
    });

    await waitForIndex();
    if (options.signal?.aborted) throw new IndexerStartAborted();
    indexBuilt = true;

    const queue = createIndexQueue(redisConnection(config.redisUrl, 'producer'), alias, {
      attempts: settings.jobAttempts,
    });
    closers.push(() => queue.close());
    const worker = startWorker(redisConnection(config.redisUrl, 'consumer'), queue, target, {
      concurrency: settings.concurrency,
      retryFirstMs: settings.retryFirstMs,
      retryMaxMs: settings.retryMaxMs,
      lockDurationMs: settings.lockMs,
      stalledIntervalMs: settings.lockMs,
    });
    // close() waits for the jobs in progress: the bulk requests in hand are finished and settled.
    closers.push(() => worker.close());
    const relay = new OutboxRelay(db, queue, metrics, logger, {
      batchSize: settings.batchSize,
      leaseSeconds: settings.leaseSeconds,
    });
    await relay.start(handle.pool);
    closers.push(() => relay.stop());
    const sweep = new VerificationSweep(db, client, alias, metrics, logger, {
      periodSeconds: settings.sweepPeriodSeconds,
      rangeSize: settings.sweepRangeSize,
    });
    sweep.start();
    closers.push(() => sweep.stop());

    const rebuildCheck = setInterval(() => {
      rebuilds.check().catch((error: unknown) => logger.error({ err: error }, 'rebuild failed; retrying'));
    }, REBUILD_CHECK_MS);
    const report = setInterval(() => void progress(), options.logEveryMs);
    closers.push(async () => {
      clearInterval(rebuildCheck);
      clearInterval(report);
    });

    async function progress(): Promise<void> {
      try {
        const ledger = await ledgerStatus(db);
        metrics.setLedger(ledger);
        const sweepStatus = await sweep.report();
        await pruneOutbox(db, KEEP_SETTLED_SECONDS);
        const fields = {
          owed: ledger.owed,
          handedOut: ledger.handed,
          refused: ledger.rejected,
          oldestUnconfirmedSeconds: Math.round(ledger.oldestSeconds),
          docsPerSecond: metrics.rate(),
          indexed: metrics.totals.indexed,
          deleted: metrics.totals.deleted,
          repaired: metrics.totals.repaired,
          lastSweepAt: sweepStatus.lastCompletedAt,
          lastSweepDrift: sweepStatus.lastDrift,
        };
        if (ledger.oldestSeconds > settings.readyMaxLagSeconds) {
          logger.warn(fields, 'indexer progress: the index is behind PostgreSQL by more than the threshold');
        } else {
          logger.info(fields, 'indexer progress');
        }
      } catch (error) {
        logger.warn({ err: error }, 'could not read what the index owes');
      }
    }

    /**
     * Before following changes there must be an index behind the alias, of the current mapping. A
     * missing one (first start) is built now, as `npm run reindex` would; one of an older mapping is
     * rebuilt in the background while it keeps answering. A cluster that is not there yet, or a
     * build that fails, is tried again (with a growing delay) rather than ending the process.
     */
    async function waitForIndex(): Promise<void> {
      for (let attempt = 0; !stopping && !options.signal?.aborted; attempt++) {
        try {
          const live = await liveMappingVersion(client, alias);
          if (live === null || live < mappingVersion()) {
            logger.info(
              { alias, liveMapping: live, mapping: mappingVersion() },
              live === null
                ? 'no index behind the alias yet: building it'
                : 'index of an older mapping: rebuilding it',
            );
            if (live !== null) await addNewFieldsToLiveIndex();
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

    /** Lets the live index of an older mapping take the current documents until the swap. */
    async function addNewFieldsToLiveIndex(): Promise<void> {
      try {
        const added = await addMissingFields(client, alias);
        if (added.length)
          logger.info({ alias, fields: added }, "the new mapping's fields added to the live index");
      } catch (error) {
        // the rebuild still brings them; meanwhile the documents carrying them are refused and retried
        logger.warn({ err: error, alias }, "could not add the new mapping's fields to the live index");
      }
    }

    logger.info({ index: alias, metricsUrl: server?.url ?? null }, 'indexer started');
    return {
      metrics,
      metricsUrl: server ? server.url.replace(/\/metrics$/, '') : null,
      async stop() {
        stopping = true;
        await closeAll();
      },
    };
  } catch (error) {
    stopping = true;
    await closeAll();
    throw error;
  }
}

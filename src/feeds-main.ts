/**
 * npm run feeds: the worker that validates and applies sellers' stock feeds (stock/feed-worker.ts),
 * beside the API processes, which only receive them. Not needed in the embedded shape (the API
 * applies them itself). SIGTERM or SIGINT let the feed in hand finish; a second one stops at once
 * (that feed is then taken up again by a worker: nothing of it was applied).
 */
import { setPriority } from 'node:os';
import { loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { createLogger } from './logger.js';
import { operatorCommand, parseCommandLine } from './operator-command.js';
import { FeedWorker } from './stock/feed-worker.js';

const mistake = parseCommandLine(
  operatorCommand(
    'feeds',
    'O processo que valida e aplica os feeds de stock dos vendedores (DATABASE_URL; FEEDS_* em .env.example).',
  ),
);
if (mistake !== null) process.exit(mistake);

const config = loadConfig();
const logger = createLogger(config).child({ component: 'feeds' });
if (!config.databaseUrl) {
  logger.fatal('the feed worker needs DATABASE_URL (in the embedded shape the API applies feeds itself)');
  process.exit(1);
}
// Feeds are background work: where the worker shares cores with the API, a search gets the CPU
// before the parsing of a seller's file does (raising one's own nice value needs no privilege).
setPriority(config.feeds.nice);
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 4 });
await migrate(database.db).catch((error: unknown) => {
  // as the indexer says it: one structured line, then the exit a supervisor restarts on
  logger.fatal({ err: error }, 'the feed worker could not start');
  process.exit(1);
});
const worker = new FeedWorker(database.db, logger, {
  pool: database.pool,
  oneConnection: database.kind === 'pglite',
  maxBytes: config.feeds.maxBytes,
  staleSeconds: config.feeds.staleSeconds,
  maxLinesPerSecond: config.feeds.maxLinesPerSecond,
  onProgress: (p) => logger.debug(p, 'feed progress'),
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) {
    logger.warn({ signal }, 'feed worker stopping now: the feed in hand is left to be taken up again');
    process.exit(1);
  }
  stopping = true;
  logger.info({ signal }, 'feed worker stopping: finishing the feed in hand (signal again to stop now)');
  await worker.stop();
  await database.close();
  logger.info('feed worker stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await worker.start();
logger.info('feed worker started');

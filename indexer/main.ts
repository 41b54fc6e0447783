/**
 * npm run indexer: keeps the OpenSearch index in step with PostgreSQL (indexer/indexer.ts). Not
 * needed in the embedded shape (Postgres engine). SIGTERM or SIGINT finish the bulk requests in
 * hand and stop.
 */
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { operatorCommand, parseCommandLine, wholeNumber } from '../src/operator-command.js';
import { IndexerStartAborted, startIndexer, type IndexerHandle } from './indexer.js';

const program = operatorCommand(
  'indexer',
  'Mantém o índice OpenSearch em dia com o PostgreSQL (DATABASE_URL, REDIS_URL, OPENSEARCH_URL).',
)
  .option(
    '--metrics-port <porta>',
    'porta de GET /metrics e GET /ready (0: uma porta livre qualquer)',
    wholeNumber(0, 65_535),
    9464,
  )
  .option(
    '--log-every <segundos>',
    'segundos entre linhas de progresso no registo',
    wholeNumber(1, 3_600),
    15,
  );
const mistake = parseCommandLine(program);
if (mistake !== null) process.exit(mistake);
const options = program.opts<{ metricsPort: number; logEvery: number }>();

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
    metricsPort: options.metricsPort,
    logEveryMs: options.logEvery * 1000,
    signal: aborting.signal,
  });
} catch (error) {
  if (!(error instanceof IndexerStartAborted)) {
    logger.fatal({ err: error }, 'the indexer could not start');
    process.exit(1);
  }
}

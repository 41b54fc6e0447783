/**
 * npm run reindex: builds a new versioned index (alias_vN) from Postgres, swaps the alias
 * atomically, removes the old index. Safe while the indexer runs (changes made during the load
 * are replayed from the outbox before the swap).
 */
import { sql } from 'kysely';
import { commandProgressBar } from '../src/command-progress.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { commandFailureMessage } from '../src/errors.js';
import { createLogger } from '../src/logger.js';
import { operatorCommand, parseCommandLine } from '../src/operator-command.js';
import { createClusterClient } from './cluster.js';
import { IndexerMetrics } from './metrics.js';
import { rebuildIndex } from './rebuild.js';
import { deliverOwed, markForRepair } from './verify/repair.js';
import { differenceCount, verifyIndex } from './verify/verify-index.js';

// Read before anything is done: `npm run reindex -- --help` shows the help, it does not rebuild.
const mistake = parseCommandLine(
  operatorCommand(
    'reindex',
    'Constrói um índice novo a partir do PostgreSQL ao lado do atual, move o alias para ele e compara-o com o PostgreSQL (OPENSEARCH_INDEX, OPENSEARCH_SHARDS).',
  ),
);
if (mistake !== null) process.exit(mistake);

const config = loadConfig();
const logger = createLogger(config).child({ component: 'reindex' });
if (!config.databaseUrl || !config.opensearch) {
  console.error('reindex precisa de DATABASE_URL e OPENSEARCH_URL.');
  process.exit(1);
}
const handle = await openDatabase({ url: config.databaseUrl, poolSize: 3 });
const total = await migrate(handle.db)
  .then(async () =>
    Number((await sql<{ n: string }>`select count(*) as n from stock_items`.execute(handle.db)).rows[0]!.n),
  )
  .catch(async (error: unknown) => {
    console.error(`reindex falhou: ${commandFailureMessage(error)} O índice não mudou.`);
    await handle.close();
    process.exit(1);
  });
const client = createClusterClient(config.opensearch);
const bar = commandProgressBar(
  'reindex [{bar}] {percentage}% | {value}/{total} documentos | {rate} docs/s | ETA {eta}s',
);
bar.start(total, 0, { rate: 0 });
const started = Date.now();
try {
  const result = await rebuildIndex(handle.db, client, config.opensearchIndex, {
    shards: config.opensearchShards,
    progress: (done) => {
      // items written while the load runs may take it past the count read before it
      if (done > bar.getTotal()) bar.setTotal(done);
      bar.update(done, { rate: Math.round(done / Math.max(0.001, (Date.now() - started) / 1000)) });
    },
    onWait: (seconds, transactions) =>
      logger.warn(
        { seconds, transactions },
        'waiting for stock transactions that were open when the rebuild began',
      ),
    // what follows the load takes minutes at millions of items (the force-merge above all)
    onStage: async (stage) => {
      if (stage !== 'loaded') return;
      bar.stop();
      process.stderr.write(
        'reindex: carregado; a escrever as alterações feitas entretanto, a fundir os segmentos e a esperar pelas cópias do índice novo…\n',
      );
    },
  });
  bar.stop();
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `${result.index}: ${result.documents} documentos em ${seconds.toFixed(1)} s (${Math.round(result.documents / Math.max(seconds, 0.001))} docs/s); alias ${config.opensearchIndex} → ${result.index}; removidos: ${result.removed.join(', ') || 'nenhum'}`,
  );
  // The new index is compared with PostgreSQL at once (what differs is written again).
  const target = {
    db: handle.db,
    client,
    alias: config.opensearchIndex,
    metrics: new IndexerMetrics(),
    logger,
    rejectedRetrySeconds: config.indexer.rejectedRetrySeconds,
  };
  const checking = commandProgressBar(
    'verificação [{bar}] {percentage}% | {value}/{total} intervalos | ETA {eta}s',
  );
  checking.start(1, 0);
  const report = await verifyIndex(handle.db, client, config.opensearchIndex, {
    onProgress: (done, estimate) => {
      checking.setTotal(estimate);
      checking.update(done);
    },
    onDifferences: async (found) => void (await deliverOwed(target, await markForRepair(handle.db, found))),
  });
  checking.stop();
  console.log(
    `verificado contra o PostgreSQL em ${report.seconds.toFixed(1)} s: ${differenceCount(report)} diferenças${differenceCount(report) ? ' (escritas de novo)' : ''}`,
  );
} catch (error) {
  bar.stop();
  logger.error({ err: error }, 'reindex failed; its new index was removed and the alias not changed');
  console.error(
    `reindex falhou: ${error instanceof Error ? error.message : String(error)}. O índice novo foi apagado e o alias não mudou.`,
  );
  process.exitCode = 1;
} finally {
  await client.close();
  await handle.close();
}

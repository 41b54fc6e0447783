/**
 * npm run indexer:disable
 *
 * For a deployment going back to the Postgres engine: stops recording stock changes for the
 * indexer (sql/0020_search_outbox.sql) and drops the changes still pending, so the outbox does not
 * grow unread. The next `npm run indexer` turns it on again and rebuilds the index, since the
 * changes made meanwhile were not recorded.
 */
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { commandFailureMessage } from '../src/errors.js';
import { operatorCommand, parseCommandLine } from '../src/operator-command.js';
import { missingSearchIndexes } from '../src/search/postgres/search-indexes.js';
import { disableOutbox } from './outbox.js';

// Read before anything is done: `--help` shows the help, it does not drop the pending changes.
const mistake = parseCommandLine(
  operatorCommand(
    'indexer:disable',
    'Deixa de registar as alterações de stock para o indexador e descarta as pendentes (para voltar ao motor Postgres).',
  ),
);
if (mistake !== null) process.exit(mistake);

const config = loadConfig();
if (!config.databaseUrl) {
  console.error('DATABASE_URL não está definido: o indexador só existe com uma base de dados PostgreSQL.');
  process.exit(1);
}
const handle = await openDatabase({ url: config.databaseUrl, poolSize: 1 });
try {
  await migrate(handle.db);
  const dropped = await disableOutbox(handle.db);
  console.log(
    `Registo de alterações para o indexador desligado; ${dropped} alterações pendentes descartadas.\n` +
      'Para voltar ao OpenSearch, inicie o indexador (npm run indexer): o índice é reconstruído.',
  );
  // set aside while OpenSearch answered (npm run db:search-indexes): the Postgres engine needs them
  const unindexed = await missingSearchIndexes(handle.db);
  if (unindexed.length) {
    console.log(
      `Aviso: faltam ${unindexed.length} índices de pesquisa do motor Postgres; construa-os antes de mudar a API: npm run db:search-indexes -- create`,
    );
  }
} catch (error) {
  console.error(`indexer:disable falhou: ${commandFailureMessage(error)}`);
  process.exitCode = 1;
} finally {
  await handle.close();
}

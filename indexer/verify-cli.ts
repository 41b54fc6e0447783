/**
 * npm run index:verify [-- --repair] [--range-size N]
 *
 * Compares every item in PostgreSQL with the live index (indexer/verify/): documents missing,
 * documents that should not exist, documents at another version or with other content than the
 * row, and documents the cluster refuses. Prints a summary with the first ids of each kind; exits
 * 1 when anything differs. With --repair, each differing item is written again through the
 * worker's own path at a fresh version (a change made meanwhile still wins), and the repaired
 * items are verified once more; exits 0 only when nothing differs any more.
 */
import { commandProgressBar } from '../src/command-progress.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { commandFailureMessage } from '../src/errors.js';
import { createLogger } from '../src/logger.js';
import { operatorCommand, parseCommandLine, wholeNumber } from '../src/operator-command.js';
import { createClusterClient } from './cluster.js';
import type { DeliveryTarget } from './delivery.js';
import type { OwedChange } from './index-queue.js';
import { IndexerMetrics } from './metrics.js';
import { listRejected } from './outbox.js';
import { confirmDifferences, type DifferenceKind } from './verify/range-check.js';
import { deliverOwed, markForRepair } from './verify/repair.js';
import { DEFAULT_RANGE_SIZE, differenceCount, verifyIndex } from './verify/verify-index.js';

/** A range that differs is read item by item from both sides: a larger one holds more rows at once. */
const MAX_RANGE_SIZE = 100_000;

const program = operatorCommand(
  'index:verify',
  'Compara o índice OpenSearch com o PostgreSQL, item a item; com --repair escreve de novo o que difere.',
)
  .option('--repair', 'escreve de novo os itens que diferem e verifica-os outra vez')
  .option(
    '--range-size <n>',
    `itens por intervalo comparado, de 1 a ${MAX_RANGE_SIZE}`,
    wholeNumber(1, MAX_RANGE_SIZE),
    DEFAULT_RANGE_SIZE,
  );
const mistake = parseCommandLine(program);
// 1 says the index differs: a mistake on the command line is 2, as anything that stops the check
if (mistake !== null) process.exit(mistake === 0 ? 0 : 2);
const options = program.opts<{ repair?: boolean; rangeSize: number }>();

const config = loadConfig();
const logger = createLogger(config).child({ component: 'index-verify' });
if (!config.databaseUrl || !config.opensearch) {
  console.error('index:verify precisa de DATABASE_URL e OPENSEARCH_URL.');
  process.exit(2);
}
const alias = config.opensearchIndex;
const handle = await openDatabase({ url: config.databaseUrl, poolSize: 4 });
const client = createClusterClient(config.opensearch);
const target: DeliveryTarget = {
  db: handle.db,
  client,
  alias,
  metrics: new IndexerMetrics(),
  logger,
  rejectedRetrySeconds: config.indexer.rejectedRetrySeconds,
};

const LABELS: Record<DifferenceKind, string> = {
  missing: 'em falta no índice',
  extra: 'a mais no índice (sem linha)',
  version: 'noutra versão que a linha',
  content: 'com outro conteúdo que a linha',
};
const number = (n: number) => n.toLocaleString('pt-PT');

async function run(): Promise<number> {
  await migrate(handle.db);
  if (!(await client.indices.existsAlias({ name: alias })).body) {
    console.error(
      `O alias ${alias} não existe: o indexador ainda não construiu o índice (npm run indexer ou npm run reindex).`,
    );
    return 2;
  }
  const state = await handle.db
    .selectFrom('search_indexer_state')
    .select('enabled')
    .executeTakeFirstOrThrow();
  if (options.repair && !state.enabled) {
    console.error(
      'O registo de alterações para o índice está desligado (npm run indexer:disable): nada a reparar por ele.',
    );
    return 2;
  }

  const repaired: OwedChange[] = [];
  const bar = commandProgressBar(
    'index:verify [{bar}] {percentage}% | {value}/{total} intervalos | ETA {eta}s',
  );
  bar.start(1, 0);
  const report = await verifyIndex(handle.db, client, alias, {
    rangeSize: options.rangeSize,
    onProgress: (done, estimate) => {
      bar.setTotal(estimate);
      bar.update(done);
    },
    onDifferences: async (differences) => {
      if (!options.repair) return;
      const owed = await markForRepair(handle.db, differences);
      await deliverOwed(target, owed);
      repaired.push(...owed);
    },
  });
  bar.stop();

  console.log(
    `index:verify — alias ${alias}: ${number(report.rows)} itens no PostgreSQL, ${number(report.ranges)} intervalos ` +
      `(${number(report.rangesDrilled)} comparados item a item), ${report.seconds.toFixed(1)} s`,
  );
  for (const kind of Object.keys(LABELS) as DifferenceKind[]) {
    const ids = report.firstIds[kind];
    console.log(
      `  ${LABELS[kind].padEnd(38)} ${number(report.counts[kind]).padStart(9)}${ids.length ? `  (ids ${ids.join(', ')}${report.counts[kind] > ids.length ? ', …' : ''})` : ''}`,
    );
  }
  console.log(
    `  ${'sem campo id (escritos à mão)'.padEnd(38)} ${number(report.unranged.length).padStart(9)}${report.unranged.length ? `  (_id ${report.unranged.join(', ')})` : ''}`,
  );
  console.log(
    `  ${'a caminho (alterações por confirmar)'.padEnd(38)} ${number(report.inFlight).padStart(9)}`,
  );

  if (options.repair) {
    // What the cluster refused before is tried once more now (the cause may have been fixed).
    const refused = await listRejected(handle.db, 100_000);
    const retried = refused.rows.map((r) => ({ itemId: r.itemId, version: r.version, deleted: false }));
    if (retried.length) await deliverOwed(target, retried);
    for (const id of report.unranged)
      await client.delete({ index: alias, id, refresh: false }, { ignore: [404] });
  }
  const rejected = await listRejected(handle.db, 10);
  console.log(`  ${'recusados pelo cluster'.padEnd(38)} ${number(rejected.total).padStart(9)}`);
  for (const r of rejected.rows) console.log(`    item ${r.itemId} (versão ${r.version}): ${r.reason}`);

  const found = differenceCount(report);
  if (!options.repair) {
    if (found + rejected.total === 0) {
      console.log('O índice está igual ao PostgreSQL.');
      return 0;
    }
    console.log(
      `Diferenças: ${number(found)}; recusados: ${number(rejected.total)}. Para reparar: npm run index:verify -- --repair`,
    );
    return 1;
  }
  const again = await confirmAfterRepair(repaired.map((r) => r.itemId));
  console.log(
    `Reparados: ${number(repaired.length + report.unranged.length)}; verificados de novo: ${number(repaired.length - again)} iguais, ${number(again)} ainda diferentes.`,
  );
  return again + rejected.total === 0 ? 0 : 1;
}

/** The repaired items that still differ now (a change made meanwhile and still on its way is not a difference). */
async function confirmAfterRepair(ids: number[]): Promise<number> {
  let still = 0;
  for (let i = 0; i < ids.length; i += 5_000) {
    const { differences } = await confirmDifferences(handle.db, client, alias, ids.slice(i, i + 5_000));
    still += differences.length;
  }
  return still;
}

try {
  process.exitCode = await run();
} catch (error) {
  logger.error({ err: error }, 'index:verify failed');
  console.error(`index:verify falhou: ${commandFailureMessage(error)}`);
  process.exitCode = 2;
} finally {
  await client.close();
  await handle.close();
}

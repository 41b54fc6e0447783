/**
 * npm run bench:indexer [-- --seconds 60 --rate 50 --index bench_stock]
 * npm run bench:indexer -- --burst 200000 [--index bench_stock]
 *
 * The change path of the production shape: the indexer runs as its own compiled process against
 * the stock at DATABASE_URL (REDIS_URL, OPENSEARCH_URL; the index built first by `npm run reindex`
 * or `npm run bench:search`).
 *
 * Steady (default): this script updates `--rate` random stock items per second, each in its own
 * committed transaction, and follows each until a search shows it; prints the p50/p95/p99/max of
 * commit → searchable.
 *
 * Burst (`--burst N`): N items' prices change at once, in one transaction (a brand's price update;
 * `--chunk` splits it into transactions of that many, as a feed applied in parts); prints, every
 * second, what the index still owes and the age of the oldest unconfirmed change, then the changes
 * per second through the change path — from the first commit until the index owed nothing — and
 * when a search showed the last item changed.
 */
import { Command } from 'commander';
import { sql } from 'kysely';
import { createClusterClient } from '../indexer/cluster.js';
import { ledgerStatus } from '../indexer/outbox.js';
import { clusterConnection } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { percentile } from './bench-support.js';
import { indexerMetric, startIndexerChild } from './indexer-bench/indexer-child.js';
import { SearchableTracker } from './indexer-bench/searchable-tracker.js';

const opts = new Command()
  .option('--seconds <n>', 'duração das alterações (modo contínuo)', '60')
  .option('--rate <n>', 'alterações de stock por segundo (modo contínuo)', '50')
  .option('--burst <n>', 'em vez do modo contínuo: N alterações de uma vez')
  .option('--chunk <n>', 'a rajada em transações deste tamanho (por omissão: uma só)')
  .option('--index <alias>', 'alias do índice OpenSearch', 'bench_stock')
  .parse()
  .opts<{ seconds: string; rate: string; burst?: string; chunk?: string; index: string }>();

const { DATABASE_URL, REDIS_URL, OPENSEARCH_URL } = process.env;
if (!DATABASE_URL || !REDIS_URL || !OPENSEARCH_URL) {
  console.error('Defina DATABASE_URL, REDIS_URL e OPENSEARCH_URL (o indexador precisa dos três).');
  process.exit(1);
}

const handle = await openDatabase({ url: DATABASE_URL, poolSize: 4 });
const client = createClusterClient(clusterConnection(process.env)!);
if (!(await client.indices.existsAlias({ name: opts.index })).body) {
  console.error(
    `O alias ${opts.index} não existe: construa o índice com npm run bench:search ou npm run reindex.`,
  );
  process.exit(1);
}
const maxId = Number(
  (await sql<{ id: string }>`select max(id) as id from stock_items`.execute(handle.db)).rows[0]!.id,
);
// What an earlier run left owed would be counted as this run's work.
await sql`update search_outbox set done_at = now() where done_at is null`.execute(handle.db);
const indexer = await startIndexerChild({ OPENSEARCH_INDEX: opts.index, INDEXER_SWEEP_PERIOD_SECONDS: '0' });
const tracker = new SearchableTracker(client, opts.index);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (opts.burst) await burst(Number(opts.burst));
else await steady(Number(opts.seconds), Number(opts.rate));

await indexer.stop();
await client.close();
await handle.close();

async function steady(seconds: number, rate: number): Promise<void> {
  console.log(
    `Indexador a correr; ${rate} alterações/s durante ${seconds} s sobre ${maxId.toLocaleString('pt-PT')} ids.`,
  );
  const indexedBefore = await indexerMetric(indexer.metricsBase, 'search_indexer_documents_indexed_total');
  const started = Date.now();
  const change = async () => {
    const id = 1 + Math.floor(Math.random() * maxId);
    const row = await sql<{ version: string }>`
      update stock_items set price = price + 0.01 where id = ${id} returning version`.execute(handle.db);
    if (row.rows[0]) tracker.committed(id, Number(row.rows[0].version));
  };
  tracker.start(20);
  const writer = setInterval(() => void change().catch((e: unknown) => console.error(e)), 1000 / rate);
  await pause(seconds * 1000);
  clearInterval(writer);
  const drainUntil = Date.now() + 30_000;
  while (tracker.pendingCount > 0 && Date.now() < drainUntil) await pause(50);
  await tracker.stop();
  const elapsed = (Date.now() - started) / 1000;
  const indexed =
    (await indexerMetric(indexer.metricsBase, 'search_indexer_documents_indexed_total')) - indexedBefore;
  const lags = tracker.changes
    .filter((c) => c.searchableAt !== null)
    .map((c) => c.searchableAt! - c.committedAt);
  const at = (p: number) => percentile(lags, p * 100);
  console.log(
    `\nAlterações: ${tracker.changes.length} (${(tracker.changes.length / seconds).toFixed(1)}/s); medidas até pesquisáveis: ${lags.length}; nunca vistas: ${tracker.pendingCount}`,
  );
  console.log(
    `Alteração → pesquisável: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, máximo ${Math.max(...lags)} ms (alvo p99 ≤ 2000 ms ${at(0.99) <= 2000 ? 'ok' : 'FALHA'})`,
  );
  console.log(`Indexador: ${indexed} documentos escritos, ${(indexed / elapsed).toFixed(1)} docs/s`);
}

async function burst(count: number): Promise<void> {
  if (count > maxId) throw new Error(`--burst ${count}: o stock tem só ${maxId} ids`);
  const chunk = Number(opts.chunk ?? count);
  console.log(
    `Rajada de ${count.toLocaleString('pt-PT')} alterações de preço (transações de ${chunk.toLocaleString('pt-PT')})…`,
  );
  const writeStarted = Date.now();
  let firstCommit = 0;
  for (let from = 1; from <= count; from += chunk) {
    await sql`update stock_items set price = price + 0.01 where id >= ${from} and id < ${Math.min(from + chunk, count + 1)}`.execute(
      handle.db,
    );
    firstCommit ||= Date.now();
  }
  const committed = Date.now();
  const last = await sql<{ id: string; version: string }>`
    select id, version from stock_items where id <= ${count} order by version desc limit 1`.execute(
    handle.db,
  );
  tracker.committed(Number(last.rows[0]!.id), Number(last.rows[0]!.version), committed);
  console.log(
    `Escritas no PostgreSQL em ${((committed - writeStarted) / 1000).toFixed(1)} s; a seguir o índice:`,
  );
  tracker.start(200);
  let owedZeroAt: number | null = null;
  const samples: number[] = [];
  while (owedZeroAt === null || tracker.pendingCount > 0) {
    const ledger = await ledgerStatus(handle.db);
    samples.push(ledger.owed);
    console.log(
      `  +${((Date.now() - committed) / 1000).toFixed(0).padStart(4)} s  por confirmar ${ledger.owed.toLocaleString('pt-PT').padStart(9)}  mais antiga ${ledger.oldestSeconds.toFixed(0).padStart(4)} s`,
    );
    if (ledger.owed === 0 && owedZeroAt === null) owedZeroAt = Date.now();
    if (Date.now() - committed > 30 * 60_000) throw new Error('o índice não apanhou a rajada em 30 minutos');
    await pause(1_000);
  }
  await tracker.stop();
  const searchableAt = tracker.changes[0]!.searchableAt!;
  const rising = samples.slice(1).filter((n, i) => n > samples[i]!).length;
  const throughFirst = count / ((owedZeroAt! - firstCommit) / 1000);
  const afterLast = (owedZeroAt! - committed) / 1000;
  console.log(
    `\nRajada: ${count.toLocaleString('pt-PT')} alterações; da primeira transação confirmada até o índice não dever nada: ${Math.round(throughFirst).toLocaleString('pt-PT')} alterações/s (alvo ≥ 5 000 ${throughFirst >= 5_000 ? 'ok' : 'FALHA'}); ${afterLast.toFixed(1)} s depois da última escrita; a última pesquisável ao fim de ${((searchableAt - committed) / 1000).toFixed(1)} s; o que falta subiu em ${rising} de ${samples.length - 1} amostras`,
  );
}

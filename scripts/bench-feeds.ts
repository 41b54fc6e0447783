/**
 * npm run bench:feeds [-- --lines 1000000 --delta 100000 --patches 200 --index bench_stock]
 *
 * A seller's stock coming in through the production shape, on the PostgreSQL at DATABASE_URL
 * already holding the stock (`npm run data:generate -- --items 1000000`) and its OpenSearch index
 * (`OPENSEARCH_INDEX=bench_stock npm run reindex`), with REDIS_URL for the indexer's queue. The API,
 * the indexer and the feed worker run compiled, each in its own process, as the Dockerfile runs them.
 *
 * 1. A new seller's full feed of `--lines` generated lines (CSV), sent through POST /stock/feeds,
 *    followed until `done`: lines per second end to end, the feed worker's peak RSS, and the p99 of
 *    searches arriving at a steady rate meanwhile against the same rate idle just before.
 * 2. The same file again: lines per second, and how many items got a new version or an outbox row
 *    (none should: every line names its item as it already is).
 * 3. A delta changing the price of `--delta` items: seconds from `done` until a count of the index
 *    shows them all at their new price.
 * 4. `--patches` single-item PATCHes, five a second: commit → searchable p50/p99.
 *
 * Sellers of earlier runs are removed first (their removal delivered to the index, and the tables
 * vacuumed, before anything is measured), so every run starts from the same stock.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReadStream } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Command } from 'commander';
import { sql } from 'kysely';
import { createClusterClient } from '../indexer/cluster.js';
import { ledgerStatus } from '../indexer/outbox.js';
import { createAccount } from '../src/accounts/accounts.js';
import { createApiKey } from '../src/accounts/api-keys.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { missingSearchIndexes, SEARCH_INDEXES } from '../src/search/postgres/search-indexes.js';
import { percentile } from './bench-support.js';
import { forkCompiledServer, startCompiledChild } from './bench-server-process.js';
import { mergesSettled } from './bench-search/opensearch-index.js';
import { sampleQueries } from './bench-search/samples.js';
import { benchSku, DELTA_PRICE_FLOOR, writeFeedCsv } from './feeds-bench/feed-files.js';
import { sampleRss } from './feeds-bench/rss-sampler.js';
import { paceSearches } from './feeds-bench/search-pacer.js';
import { startIndexerChild } from './indexer-bench/indexer-child.js';
import { SearchableTracker } from './indexer-bench/searchable-tracker.js';

const opts = new Command()
  .option('--lines <n>', 'linhas do feed completo do vendedor novo', '1000000')
  .option('--delta <n>', 'alterações de preço do feed delta', '100000')
  .option('--patches <n>', 'PATCH de um artigo, seguidos até aparecerem na pesquisa', '200')
  .option('--search-rate <n>', 'pesquisas por segundo, em repouso e durante a carga', '20')
  .option('--idle-seconds <n>', 'duração da medição das pesquisas em repouso', '60')
  .option('--min-items <n>', 'o stock que a base de dados deve ter antes', '1000000')
  .option('--index <alias>', 'alias do índice OpenSearch', 'bench_stock')
  .option('--seed <n>', 'semente do stock gerado do vendedor', '77')
  .parse()
  .opts<{
    lines: string;
    delta: string;
    patches: string;
    searchRate: string;
    idleSeconds: string;
    minItems: string;
    index: string;
    seed: string;
  }>();
const LINES = Number(opts.lines);
const DELTA = Math.min(Number(opts.delta), LINES);
const PATCHES = Math.min(Number(opts.patches), LINES - DELTA);
const SELLER_NAME = 'Benchmark de feeds';

const { DATABASE_URL, REDIS_URL, OPENSEARCH_URL } = process.env;
if (!DATABASE_URL || !REDIS_URL || !OPENSEARCH_URL) {
  console.error('Defina DATABASE_URL, REDIS_URL e OPENSEARCH_URL (o indexador precisa dos três).');
  process.exit(1);
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const number = (n: number) => Math.round(n).toLocaleString('pt-PT');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const handle = await openDatabase({ url: DATABASE_URL, poolSize: 4 });
const { db } = handle;
await migrate(db);
const client = createClusterClient(OPENSEARCH_URL);
const held = Number((await sql<{ n: string }>`select count(*) as n from stock_items`.execute(db)).rows[0]!.n);
if (held < Number(opts.minItems)) {
  console.error(
    `A base de dados tem ${number(held)} artigos; o benchmark pede ${number(Number(opts.minItems))}: ` +
      `npm run data:generate -- --items ${opts.minItems}, depois OPENSEARCH_INDEX=${opts.index} npm run reindex.`,
  );
  process.exit(1);
}
if (!(await client.indices.existsAlias({ name: opts.index })).body) {
  console.error(`O alias ${opts.index} não existe: OPENSEARCH_INDEX=${opts.index} npm run reindex.`);
  process.exit(1);
}

// In the production shape an operator may have set the Postgres engine's search indexes aside
// (npm run db:search-indexes): every write then maintains fewer indexes. Said, since it changes
// every figure below.
const unindexed = await missingSearchIndexes(db);
console.log(
  unindexed.length
    ? `Índices de pesquisa do motor Postgres: ${unindexed.length} de ${SEARCH_INDEXES.length} postos de parte (npm run db:search-indexes).`
    : `Índices de pesquisa do motor Postgres: os ${SEARCH_INDEXES.length} construídos.`,
);

// PostgreSQL's settings that move these figures: memory, WAL between checkpoints, and how soon the
// WAL writer flushes a load's WAL (which every charge's commit otherwise waits behind).
const settings = await sql<{ name: string; setting: string }>`
  select name, current_setting(name) as setting from unnest(array['shared_buffers', 'max_wal_size',
         'wal_writer_delay', 'wal_writer_flush_after']) as name`.execute(db);
console.log(`PostgreSQL: ${settings.rows.map((r) => `${r.name} = ${r.setting}`).join(', ')}.`);
console.log(
  `Processo do feed: FEEDS_MAX_LINES_PER_SECOND = ${process.env.FEEDS_MAX_LINES_PER_SECOND ?? '(por omissão)'}; ` +
    `API: FEEDS_MAX_UPLOAD_MB_PER_SECOND = ${process.env.FEEDS_MAX_UPLOAD_MB_PER_SECOND ?? '(por omissão)'}.`,
);

// What an earlier run left owed is not this run's work; the removal of earlier runs' sellers is
// delivered by the indexer below, before anything is measured.
await sql`update search_outbox set done_at = now() where done_at is null`.execute(db);
const removed = await sql`
  delete from stock_items where vendor_id in (select id from vendors where name = ${SELLER_NAME})`.execute(
  db,
);
await sql`delete from vendors where name = ${SELLER_NAME}`.execute(db);

const account = await createAccount(
  db,
  { email: `bench-feeds-${Date.now()}@bench.local`, password: 'bench-password-123' },
  { scrypt: { N: 1024, r: 8, p: 1 } },
);
// ids of vendors loaded by data:generate were given explicitly: the next one is max + 1
const sellerId = (
  await sql<{ id: string }>`
    insert into vendors (id, name, country_code, city, account_id)
    select coalesce(max(id), 0) + 1, ${SELLER_NAME}, 'PT', 'Porto', ${account.id} from vendors
    returning id`.execute(db)
).rows[0]!.id;
const stockKey = (
  await createApiKey(db, account.id, {
    name: 'bench-feeds',
    scopes: ['stock:write'],
    seller_id: sellerId,
    rate_limit_per_minute: 100_000_000,
    rate_limit_per_hour: 100_000_000,
  })
).key;

const folder = await mkdtemp(join(tmpdir(), 'bench-feeds-'));
const fullFile = join(folder, 'completo.csv');
const deltaFile = join(folder, 'delta.csv');
const started = Date.now();
const fullBytes = await writeFeedCsv(fullFile, LINES, { seed: Number(opts.seed) });
const deltaPrice = (index: number) => `${DELTA_PRICE_FLOOR + (index % 1000)}.25`;
const deltaBytes = await writeFeedCsv(deltaFile, DELTA, { seed: Number(opts.seed), priced: deltaPrice });
console.log(
  `Vendedor ${sellerId}; feed completo de ${number(LINES)} linhas (${(fullBytes / 2 ** 20).toFixed(0)} MB), ` +
    `delta de ${number(DELTA)} (${(deltaBytes / 2 ** 20).toFixed(0)} MB), escritos em ${seconds(Date.now() - started)}.`,
);

const api = forkCompiledServer('bench-search-server', [], {
  SEARCH_ENGINE: 'opensearch',
  OPENSEARCH_INDEX: opts.index,
});
const ready = await new Promise<{ apiUrl: string; apiKeys: string[] }>((resolve, reject) => {
  api.once('message', (m) => resolve(m as { apiUrl: string; apiKeys: string[] }));
  api.once('exit', (code) => reject(new Error(`o servidor terminou (código ${code})`)));
});
const indexer = await startIndexerChild({ OPENSEARCH_INDEX: opts.index, INDEXER_SWEEP_PERIOD_SECONDS: '0' });
const worker = await startCompiledChild('src/feeds-main.js', [], {}, 'feed worker started');
const workerRss = sampleRss(worker.child.pid!);
// an error anywhere below must not leave the three processes running
process.on('exit', () => {
  for (const child of [api, indexer.child, worker.child]) if (child.exitCode === null) child.kill('SIGKILL');
});

if (removed.numAffectedRows)
  console.log(
    `A remover do índice ${number(Number(removed.numAffectedRows))} artigos de execuções anteriores…`,
  );
await indexCaughtUp();
// The earlier seller's rows, deleted, are still in the stock's indexes until vacuumed: this run's
// seller (the same id, the same SKUs) would meet them on every insert, which no real new seller does.
if (removed.numAffectedRows) {
  console.log('A limpar (VACUUM) o stock das execuções anteriores…');
  await sql`vacuum stock_items, stock_item_references, search_outbox`.execute(db);
  // ...and, in the index, a million deleted documents that the cluster's merges would spend the
  // measured load's first minute purging, on the same two cores
  console.log('A purgar do índice os documentos removidos (force-merge, only_expunge_deletes)…');
  await client.indices.forcemerge(
    { index: opts.index, only_expunge_deletes: true },
    { requestTimeout: 3_600_000 },
  );
  await mergesSettled(client);
}

const references = (await sampleQueries(db)).references;
const searchRate = Number(opts.searchRate);
// Warmed first, unmeasured: a just-started API's first searches (JIT, pools, the cluster's caches)
// are slower than any later ones, and would make the idle p99 look worse than it is.
console.log(`Aquecimento: ${searchRate}/s durante 10 s (não medido)…`);
const warming = paceSearches(ready.apiUrl, ready.apiKeys[0]!, references, searchRate);
await pause(10_000);
await warming.stop();
// A minute by default: the p99 of 20 s of searches at 20/s is their fourth-slowest answer, which
// moved from 18 to 41 ms between runs minutes apart, and with it the ratio to the load's p99.
console.log(`Pesquisas em repouso: ${searchRate}/s durante ${opts.idleSeconds} s…`);
let searches = paceSearches(ready.apiUrl, ready.apiKeys[0]!, references, searchRate);
await pause(Number(opts.idleSeconds) * 1000);
const idle = await searches.stop();

console.log(`\n1. Primeira carga (${number(LINES)} linhas, vendedor novo), com ${searchRate} pesquisas/s:`);
searches = paceSearches(ready.apiUrl, ready.apiKeys[0]!, references, searchRate);
const first = await sendFeed(fullFile, 'full');
const duringLoad = await searches.stop();
const drainStarted = Date.now();
await indexCaughtUp();
const drained = Date.now() - drainStarted;

console.log(`\n2. O mesmo ficheiro outra vez:`);
const before = (
  await sql<{ version: string; outbox: string }>`
    select (select coalesce(max(version), 0) from stock_items) as version,
           (select coalesce(max(id), 0) from search_outbox) as outbox`.execute(db)
).rows[0]!;
const again = await sendFeed(fullFile, 'full');
const rewritten = (
  await sql<{ versions: string; outbox: string }>`
    select (select count(*) from stock_items where vendor_id = ${sellerId} and version > ${before.version}) as versions,
           (select count(*) from search_outbox where id > ${before.outbox}) as outbox`.execute(db)
).rows[0]!;

console.log(`\n3. Delta de ${number(DELTA)} preços:`);
const deltaRun = await sendFeed(deltaFile, 'delta');
const visibleMs = await deltaSearchable(deltaRun.doneAt);

console.log(`\n4. ${PATCHES} PATCH de um artigo, 5 por segundo:`);
const patchLatencies = await patchesSearchable();

workerRss.stop();
await worker.stop();
await indexer.stop();
api.send({ type: 'stop' });
await client.close();
await handle.close();
await rm(folder, { recursive: true, force: true });

const rate = (run: FeedRun) => LINES / (run.ms / 1000);
const rows: [string, string, string, boolean][] = [
  ['primeira carga, linhas/s (envio → done)', number(rate(first)), '≥ 10 000', rate(first) >= 10_000],
  ['o mesmo ficheiro outra vez, linhas/s', number(rate(again)), '≥ 50 000', rate(again) >= 50_000],
  [
    'versões novas / linhas do outbox na repetição',
    `${rewritten.versions} / ${rewritten.outbox}`,
    '0 / 0',
    Number(rewritten.versions) === 0 && Number(rewritten.outbox) === 0,
  ],
  [
    `delta de ${number(DELTA)}: done → visível na pesquisa`,
    seconds(visibleMs),
    '≤ 30 s',
    visibleMs <= 30_000,
  ],
  [
    'RSS máximo do processo do feed',
    `${(workerRss.peak() / 2 ** 20).toFixed(0)} MB`,
    '≤ 300 MB',
    workerRss.peak() <= 300 * 2 ** 20,
  ],
  [
    'p99 das pesquisas durante a carga ÷ em repouso',
    `${(duringLoad.p99 / idle.p99).toFixed(2)} (${duringLoad.p99.toFixed(0)} / ${idle.p99.toFixed(0)} ms)`,
    '≤ 2',
    duringLoad.p99 / idle.p99 <= 2,
  ],
  [
    'PATCH → visível na pesquisa, p50 / p99',
    `${percentile(patchLatencies, 50).toFixed(0)} / ${percentile(patchLatencies, 99).toFixed(0)} ms`,
    'p99 ≤ 2 s',
    percentile(patchLatencies, 99) <= 2_000,
  ],
];
console.log('\n| medida | valor | objetivo |\n| --- | --- | --- |');
for (const [name, value, target, met] of rows)
  console.log(`| ${name} | ${value} | ${target} ${met ? 'cumprido' : 'falhado'} |`);
console.log(
  `\nPesquisas: em repouso p50 ${idle.p50.toFixed(0)} ms (${idle.count}, ${idle.failed} falhadas); ` +
    `durante a carga p50 ${duringLoad.p50.toFixed(0)} ms (${duringLoad.count}, ${duringLoad.failed} falhadas). ` +
    `O índice recebeu a primeira carga ${seconds(drained)} depois do done.`,
);
process.exit(0);

interface FeedRun {
  ms: number;
  doneAt: number;
}

/** Sends a file through POST /stock/feeds and follows the feed to its end, printing its progress. */
async function sendFeed(file: string, mode: 'full' | 'delta'): Promise<FeedRun> {
  const sent = Date.now();
  const answer = await upload(`${ready.apiUrl}/stock/feeds?seller=${sellerId}&mode=${mode}`, file);
  const body = JSON.parse(answer.body) as { feed?: { id: string }; mensagem?: string };
  if (answer.status !== 202) throw new Error(`POST /stock/feeds: ${answer.status} ${body.mensagem}`);
  const id = body.feed!.id;
  console.log(`   recebido em ${seconds(Date.now() - sent)} (feed ${id})`);
  let printed = 0;
  for (;;) {
    const feed = (
      (await (
        await fetch(`${ready.apiUrl}/stock/feeds/${id}`, { headers: { 'x-api-key': stockKey } })
      ).json()) as {
        feed: { status: string; reason: string | null; counts: Record<string, number> };
      }
    ).feed;
    const now = Date.now();
    if (['done', 'refused', 'failed'].includes(feed.status)) {
      const { lines, created, updated, unchanged, removed, rejected } = feed.counts;
      console.log(
        `   ${feed.status} em ${seconds(now - sent)}: ${number(lines!)} linhas, ${number(created!)} criados, ` +
          `${number(updated!)} alterados, ${number(unchanged!)} iguais, ${number(removed!)} removidos, ${number(rejected!)} rejeitados`,
      );
      if (feed.status !== 'done') throw new Error(`o feed ${id} terminou ${feed.status}: ${feed.reason}`);
      return { ms: now - sent, doneAt: now };
    }
    if (now - printed >= 5_000) {
      printed = now;
      console.log(`   ${seconds(now - sent)}: ${feed.status}, ${number(feed.counts.lines!)} linhas lidas`);
    }
    await pause(200);
  }
}

/**
 * POSTs a file as a feed's body, piped from the disk by node:http: sending it through fetch's web
 * streams took the benchmark's own process twice the CPU, on the cores the measured searches share.
 */
function upload(url: string, file: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'text/csv', 'x-api-key': stockKey } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    pipeline(createReadStream(file, { highWaterMark: 2 ** 20 }), request).catch(reject);
  });
}

/** Waits until the index owes nothing, saying what it still owes every 5 s. */
async function indexCaughtUp(): Promise<void> {
  let printed = Date.now();
  for (;;) {
    const { owed } = await ledgerStatus(db);
    if (owed === 0) return;
    if (Date.now() - printed >= 5_000) {
      printed = Date.now();
      console.log(`   o índice ainda deve ${number(owed)} alterações`);
    }
    await pause(250);
  }
}

/** ms from the delta's `done` until a count of the index shows every item at its new price. */
async function deltaSearchable(doneAt: number): Promise<number> {
  for (;;) {
    const answer = await client.count({
      index: opts.index,
      body: {
        query: {
          bool: {
            filter: [{ term: { vendor_id: sellerId } }, { range: { price: { gte: DELTA_PRICE_FLOOR } } }],
          },
        },
      },
    });
    if (answer.body.count >= DELTA) {
      const ms = Date.now() - doneAt;
      console.log(`   os ${number(DELTA)} preços novos na pesquisa ${seconds(ms)} depois do done`);
      return ms;
    }
    if (Date.now() - doneAt > 300_000)
      throw new Error(`o delta não apareceu no índice em 300 s (${answer.body.count})`);
    await pause(100);
  }
}

/** Single-item PATCHes of items the delta left alone; each followed until a search shows it. */
async function patchesSearchable(): Promise<number[]> {
  const tracker = new SearchableTracker(client, opts.index);
  tracker.start(20);
  for (let i = 0; i < PATCHES; i++) {
    const sent = Date.now();
    const answer = await fetch(`${ready.apiUrl}/stock/items/${benchSku(DELTA + i)}?seller=${sellerId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-api-key': stockKey },
      body: JSON.stringify({ price: Number((1 + i / 100).toFixed(2)) }),
    });
    const body = (await answer.json()) as { item?: { id: string; version: string }; mensagem?: string };
    if (!answer.ok) throw new Error(`PATCH: ${answer.status} ${body.mensagem}`);
    tracker.committed(Number(body.item!.id), Number(body.item!.version), sent);
    await pause(Math.max(0, sent + 200 - Date.now()));
  }
  const until = Date.now() + 60_000;
  while (tracker.pendingCount > 0 && Date.now() < until) await pause(50);
  await tracker.stop();
  if (tracker.pendingCount > 0) console.log(`   ${tracker.pendingCount} PATCH não apareceram em 60 s`);
  const latencies = tracker.changes
    .filter((c) => c.searchableAt !== null)
    .map((c) => c.searchableAt! - c.committedAt);
  console.log(
    `   ${latencies.length} visíveis: p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms`,
  );
  return latencies;
}

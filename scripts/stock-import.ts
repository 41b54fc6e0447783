/**
 * npm run stock:import -- --seller ID --file F [--mode full|delta] [--dry-run] [--force] [--errors F]
 *
 * The operator's way to load a seller's stock from a file: the same feed as POST /stock/feeds
 * (received into the database, validated and applied by the same worker code, recorded in the
 * seller's feed history), run here, with a progress bar and the feed's summary. CSV (.csv, .tsv,
 * .txt) or JSON Lines (.jsonl, .ndjson), gzipped when the name ends in .gz.
 *
 * On the embedded database (no DATABASE_URL: DATA_DIR), run it with the API stopped: the data
 * directory takes one process at a time.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { InvalidArgumentError, Option } from 'commander';
import pino from 'pino';
import { commandProgressBar } from '../src/command-progress.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { errorReport } from '../src/stock/feed-csv.js';
import { allErrors, createFeed, findFeed, firstErrors, receiveBody } from '../src/stock/feed-store.js';
import { FeedWorker } from '../src/stock/feed-worker.js';
import { operatorCommand, parseCommandLine, runOperatorCommand } from '../src/operator-command.js';

const program = operatorCommand(
  'stock:import',
  'Carrega o stock de um vendedor a partir de um ficheiro (CSV ou JSON Lines, .gz aceite), como um feed.',
)
  .requiredOption('--seller <id>', 'id do vendedor', (text) => {
    if (!/^[0-9]{1,18}$/.test(text)) throw new InvalidArgumentError(`"${text}" não é um id de vendedor.`);
    return text;
  })
  .requiredOption('--file <ficheiro>', 'o ficheiro do feed')
  .addOption(
    new Option('--mode <modo>', 'full: o stock inteiro do vendedor; delta: só as linhas do ficheiro')
      .choices(['full', 'delta'])
      .default('delta'),
  )
  .option('--dry-run', 'valida e mostra o que mudaria, sem mudar nada', false)
  .option('--force', 'aplica um feed completo que removeria mais de 30 % do stock, ou vazio', false)
  .option('--errors <ficheiro>', 'escreve as linhas rejeitadas neste ficheiro CSV');

interface Options {
  seller: string;
  file: string;
  mode: 'full' | 'delta';
  dryRun: boolean;
  force: boolean;
  errors?: string;
}

const formatOf = (file: string) => (/\.(jsonl|ndjson)(\.gz)?$/i.test(file) ? 'jsonl' : 'csv');

/** The lines of the file, for the progress bar's total (read once, decompressed if need be). */
async function countLines(file: string, gzipped: boolean): Promise<number> {
  const file$ = createReadStream(file);
  const source: AsyncIterable<Buffer> = gzipped ? file$.pipe(createGunzip()) : file$;
  let lines = 0;
  for await (const chunk of source) {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  }
  return lines;
}

const shown = (n: number) => n.toLocaleString('pt-PT');

async function main(): Promise<number> {
  const mistake = parseCommandLine(program);
  if (mistake !== null) return mistake;
  const options = program.opts<Options>();
  const size = await stat(options.file).catch(() => null);
  if (!size?.isFile()) {
    process.stderr.write(`Erro: o ficheiro ${options.file} não existe ou não é um ficheiro.\n`);
    return 1;
  }
  const gzipped = /\.gz$/i.test(options.file);

  const config = loadConfig(process.env);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 3 });
  try {
    await migrate(database.db);
    const db = database.db;
    const seller = await db
      .selectFrom('vendors')
      .select(['id', 'name'])
      .where('id', '=', options.seller)
      .executeTakeFirst();
    if (!seller) {
      process.stderr.write(`Erro: não existe nenhum vendedor com o id ${options.seller}.\n`);
      return 1;
    }
    const total = Math.max(
      1,
      (await countLines(options.file, gzipped)) - (formatOf(options.file) === 'csv' ? 1 : 0),
    );
    const feedId = await createFeed(db, {
      vendorId: seller.id,
      accountId: null,
      mode: options.mode,
      format: formatOf(options.file),
      gzipped,
      dryRun: options.dryRun,
      force: options.force,
    });
    await receiveBody(db, feedId, createReadStream(options.file), {
      maxBytes: config.feeds.maxBytes,
      maxBytesPerSecond: config.feeds.maxUploadBytesPerSecond,
    });

    const bar = commandProgressBar(
      'stock:import [{bar}] {percentage}% | {value}/{total} linhas | rejeitadas {rejected} | ETA {eta}s',
    );
    bar.start(total, 0, { rejected: 0 });
    const worker = new FeedWorker(db, pino({ level: 'warn' }, pino.destination(2)), {
      maxBytes: config.feeds.maxBytes,
      maxLinesPerSecond: config.feeds.maxLinesPerSecond,
      oneConnection: database.kind === 'pglite',
      pollMs: 500,
      onProgress: (p) => bar.update(Math.min(p.lines, total), { rejected: p.rejected }),
    });
    if (!(await worker.processFeed(feedId))) {
      // a feeds worker (npm run feeds) took it first: its progress is followed until it ends
      process.stderr.write(
        'Aviso: o feed está a ser tratado por outro processo (npm run feeds); a acompanhar.\n',
      );
      for (;;) {
        const seen = (await findFeed(db, feedId))!;
        bar.update(Math.min(seen.lines, total), { rejected: seen.rejected });
        if (FINAL_STATUSES.has(seen.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    bar.stop();
    const feed = (await findFeed(db, feedId))!;

    const lines = [
      `Feed ${feed.id} do vendedor ${seller.name} (id ${seller.id}), ${feed.mode}${feed.dry_run ? ', simulação' : ''}: ${feed.status}`,
      `  linhas:      ${shown(feed.lines)}`,
      `  criados:     ${shown(feed.created)}`,
      `  alterados:   ${shown(feed.updated)}`,
      `  iguais:      ${shown(feed.unchanged)}`,
      `  removidos:   ${shown(feed.removed)}`,
      `  rejeitadas:  ${shown(feed.rejected)}`,
      ...feed.warnings.map((w) => `  aviso: ${w}`),
      ...(feed.reason ? [`  motivo (${feed.reason_code}): ${feed.reason}`] : []),
    ];
    for (const e of await firstErrors(db, feedId, 10)) {
      lines.push(
        `  linha ${e.line}${e.sku ? ` (SKU ${e.sku})` : ''}${e.field ? `, ${e.field}` : ''}: ${e.message}`,
      );
    }
    if (feed.rejected > 10)
      lines.push(`  … e mais ${shown(feed.rejected - 10)} (--errors F para as ter todas)`);
    if (feed.started_at && feed.finished_at) {
      const seconds = (feed.finished_at.getTime() - feed.started_at.getTime()) / 1000;
      lines.push(
        `  duração:     ${seconds.toFixed(1)} s (${shown(Math.round(feed.lines / Math.max(seconds, 0.001)))} linhas/s)`,
      );
    }
    process.stdout.write(lines.join('\n') + '\n');
    if (options.errors) {
      await pipeline(errorReport(allErrors(db, feedId)), createWriteStream(options.errors));
      process.stdout.write(`Linhas rejeitadas escritas em ${options.errors}.\n`);
    }
    return feed.status === 'done' ? 0 : 2;
  } finally {
    await database.close();
  }
}

/** where a feed ends */
const FINAL_STATUSES = new Set(['done', 'refused', 'failed']);

await runOperatorCommand(main);

/**
 * npm run stock:languages [-- --batch 2000]
 *
 * The operator's one-off after upgrading to listings told by language (sql/0045, mapping 9): tells
 * the language of every stock item written before items carried one. Until then such an item is
 * analysed in all six languages, as before, and a rebuild is only as fast as before; each item
 * told is written again to the index by the indexer (a new version, its `updated_at` kept). Run it
 * before starting the new release's indexer (its first start rebuilds the index for the new
 * mapping), to have that rebuild at its new speed. Safe while the API, the feeds and the indexer
 * run (it never waits for a row another writer holds); stopped half-way, running it again carries
 * on. Prints what it told, by language.
 *
 * On the embedded database (no DATABASE_URL: DATA_DIR), run it with the API stopped: the data
 * directory takes one process at a time.
 */
import { sql } from 'kysely';
import { commandProgressBar } from '../src/command-progress.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { LISTING_LANGUAGES } from '../src/search/listing-language.js';
import { tellMissingLanguages } from '../src/stock/listing-languages-backfill.js';
import {
  operatorCommand,
  parseCommandLine,
  runOperatorCommand,
  wholeNumber,
} from '../src/operator-command.js';

const MAX_BATCH = 10_000;

const program = operatorCommand(
  'stock:languages',
  'Indica a língua dos artigos de stock escritos antes de os artigos a terem (cada um é depois reindexado).',
).option('--batch <n>', `artigos por transação, de 1 a ${MAX_BATCH}`, wholeNumber(1, MAX_BATCH), 2_000);

const shown = (n: number) => n.toLocaleString('pt-PT');

async function main(): Promise<number> {
  const mistake = parseCommandLine(program);
  if (mistake !== null) return mistake;
  const { batch } = program.opts<{ batch: number }>();
  const config = loadConfig(process.env);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    await migrate(database.db);
    const untold = Number(
      (
        await sql<{ n: string }>`select count(*) as n from stock_items where text_language is null`.execute(
          database.db,
        )
      ).rows[0]!.n,
    );
    const bar = commandProgressBar(
      'stock:languages [{bar}] {percentage}% | {value}/{total} artigos | ETA {eta}s',
    );
    bar.start(untold, 0);
    const started = Date.now();
    // items written without a language meanwhile (by an older release's process) may take the
    // items read past the count
    const outcome = await tellMissingLanguages(database.db, {
      batchSize: batch,
      progress: (read) => bar.update(Math.min(read, untold)),
    });
    bar.stop();
    const told = LISTING_LANGUAGES.flatMap((l) =>
      outcome.told[l] ? [`${l} ${shown(outcome.told[l])}`] : [],
    );
    const toldTotal = Object.values(outcome.told).reduce((sum, n) => sum + n, 0);
    process.stdout.write(
      [
        `Artigos sem língua lidos: ${shown(outcome.read)} em ${((Date.now() - started) / 1000).toFixed(1)} s.`,
        `  com a língua indicada:   ${shown(toldTotal)}${told.length ? ` (${told.join(', ')})` : ''}${toldTotal ? '; com OpenSearch, o indexador volta a escrevê-los' : ''}`,
        `  sem língua reconhecível: ${shown(outcome.untold)} (títulos curtos, só códigos, outra língua): analisados nas seis línguas`,
        ...(outcome.skipped
          ? [
              `  deixados para depois:    ${shown(outcome.skipped)} (alterados ou presos por outra escrita entretanto; volte a correr o comando)`,
            ]
          : []),
      ].join('\n') + '\n',
    );
    return 0;
  } finally {
    await database.close();
  }
}

await runOperatorCommand(main);

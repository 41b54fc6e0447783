/**
 * npm run data:generate -- --items 1000000 [--seed N] [--vendors N] [--truncate]
 *
 * Loads generated stock into the PostgreSQL at DATABASE_URL through streaming COPY (the same
 * generator as the embedded demo). By default the rows are appended after the ids already in
 * use; --truncate empties the stock tables first, in the same transaction.
 */
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { demoCatalogParts } from '../src/demo/demo-catalog.js';
import { DemoDataset } from '../src/demo/generator.js';
import { loadWithCopy } from '../src/demo/load-copy.js';
import { takenIds, totalRows } from '../src/demo/load-phases.js';
import { phaseBars } from '../src/demo/progress-bars.js';
import {
  operatorCommand,
  parseCommandLine,
  runOperatorCommand,
  wholeNumber,
} from '../src/operator-command.js';

const program = operatorCommand(
  'data:generate',
  'Gera dados de stock determinísticos e carrega-os no PostgreSQL de DATABASE_URL (COPY).',
)
  .option('--items <n>', 'número de artigos em stock', wholeNumber(1, 100_000_000), 1_000_000)
  .option(
    '--seed <n>',
    'semente do gerador (os mesmos dados para a mesma semente)',
    wholeNumber(0, 2_147_483_647),
    1,
  )
  .option(
    '--vendors <n>',
    'número de vendedores (por omissão: max(300, artigos/250))',
    wholeNumber(1, 10_000_000),
  )
  .option('--truncate', 'esvazia as tabelas de stock antes de carregar (por omissão acrescenta)', false);

async function main(): Promise<number> {
  const mistake = parseCommandLine(program);
  if (mistake !== null) return mistake;
  const options = program.opts<{ items: number; seed: number; vendors?: number; truncate: boolean }>();
  const url = process.env.DATABASE_URL;
  if (!url) {
    process.stderr.write(
      'Erro: DATABASE_URL não está definido. Indique a base de dados PostgreSQL de destino, por exemplo:\n' +
        '  DATABASE_URL=postgres://postgres@127.0.0.1:5432/pss_bench npm run data:generate -- --items 1000000\n',
    );
    return 1;
  }
  const vendors = options.vendors ?? Math.max(300, Math.round(options.items / 250));
  const handle = await openDatabase({ url, poolSize: 2 });
  try {
    await migrate(handle.db);
    const after = options.truncate ? { vendor: 0, group: 0, item: 0 } : await takenIds(handle.db);
    const dataset = new DemoDataset({
      seed: options.seed,
      items: options.items,
      vendors,
      catalog: demoCatalogParts(),
      after,
    });
    process.stderr.write(
      `A gerar ${options.items.toLocaleString('pt-PT')} artigos e ${vendors.toLocaleString('pt-PT')} vendedores ` +
        `(semente ${options.seed}, ${options.truncate ? 'tabelas de stock esvaziadas' : `ids a partir de ${after.item + 1}`})\n`,
    );
    const bars = phaseBars();
    const summary = await loadWithCopy(handle.pool!, dataset, {
      onProgress: bars.onProgress,
      truncate: options.truncate,
    });
    bars.finish();
    const rows = totalRows(summary);
    process.stdout.write(
      [
        `Carregado em ${summary.seconds.toFixed(1)} s:`,
        `  vendedores:              ${summary.vendors}`,
        `  grupos de equivalências: ${summary.xrefGroups} (${summary.xrefGroupReferences} referências)`,
        `  artigos em stock:        ${summary.items} (${summary.itemReferences} referências associadas)`,
        `  total: ${rows} linhas, ${Math.round(rows / summary.seconds)} linhas/s (${Math.round(summary.items / summary.seconds)} artigos/s)`,
      ].join('\n') + '\n',
    );
    return 0;
  } finally {
    await handle.close();
  }
}

await runOperatorCommand(main);

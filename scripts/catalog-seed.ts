/**
 * npm run catalog:seed
 *
 * Loads the reference catalogs the API serves (the lists, 1,656 parts in six languages, 1,119
 * vehicle makes, 20,524 models, their variants and engines: src/catalog/seed.ts) into the database
 * the API uses (DATABASE_URL, or the embedded one under DATA_DIR), and nothing else: no stock, no
 * account. A new PostgreSQL starts with empty catalogs; SEED_DEMO_DATA=true would also create a
 * demo account there. Running it again changes nothing and says so; catalogs that already hold
 * rows (an operator's own, catalog:import) are left as they are.
 */
import { countCatalogRows, type CatalogCounts } from '../src/catalog/catalog-counts.js';
import { seedCatalog } from '../src/catalog/seed.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { phaseBars } from '../src/demo/progress-bars.js';
import { operatorCommand, parseCommandLine, runOperatorCommand } from '../src/operator-command.js';

const program = operatorCommand(
  'catalog:seed',
  'Carrega os catálogos de referência (peças e veículos) numa base de dados sem catálogos; não toca no stock nem nas contas.',
);

const TABLES: [keyof CatalogCounts, string][] = [
  ['lists', 'listas (grupos, tipos, lados…)'],
  ['parts', 'peças'],
  ['makes', 'marcas de veículos'],
  ['models', 'modelos'],
  ['variants', 'versões'],
  ['engines', 'motores'],
];

function describe(counts: CatalogCounts): string[] {
  return TABLES.map(
    ([table, label]) => `  ${`${label}:`.padEnd(32)}${counts[table].toLocaleString('pt-PT')}`,
  );
}

async function main(): Promise<number> {
  const mistake = parseCommandLine(program);
  if (mistake !== null) return mistake;
  const config = loadConfig(process.env);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    await migrate(database.db);
    const bars = phaseBars();
    const outcome = await seedCatalog(database.db, {
      onProgress: (done, total, label) => bars.onProgress(label, done, total),
    });
    bars.finish();
    const counts = await countCatalogRows(database.db);
    const where = config.databaseUrl ? 'na base de dados de DATABASE_URL' : `em ${config.dataDir}`;
    process.stdout.write(
      [
        outcome.seeded
          ? `Catálogos de referência carregados ${where} em ${outcome.seconds.toFixed(1)} s (${outcome.rows.toLocaleString('pt-PT')} registos):`
          : `Os catálogos já tinham dados ${where}: nada foi alterado.`,
        ...describe(counts),
        // (the API keeps catalog pages and the parts list for a minute: catalog-cache, parts-snapshot)
        ...(outcome.seeded ? ['Uma API já em execução passa a servi-los dentro de um minuto.'] : []),
      ].join('\n') + '\n',
    );
    return 0;
  } finally {
    await database.close();
  }
}

await runOperatorCommand(main);

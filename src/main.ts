import { countCatalogRows, emptyCatalogs } from './catalog/catalog-counts.js';
import { ConfigError, loadConfig } from './config.js';
import { operatorMessage, ServiceError } from './errors.js';
import { migrate } from './db/migrate.js';
import { prepareDemo } from './demo/prepare-demo.js';
import { operatorCommand, parseCommandLine } from './operator-command.js';
import { missingSearchIndexes } from './search/postgres/search-indexes.js';
import { startServer } from './server.js';
import { createServices } from './services.js';

async function main(): Promise<void> {
  const mistake = parseCommandLine(
    operatorCommand(
      'start',
      'A API: sem DATABASE_URL, a base de dados embutida (DATA_DIR) com dados de demonstração. A configuração vem de variáveis de ambiente (.env.example).',
    ),
  );
  if (mistake !== null) process.exit(mistake);
  const config = loadConfig();
  const services = await createServices(config);
  const { logger } = services;
  const migrations = await migrate(services.db);
  if (migrations.applied.length) logger.info({ applied: migrations.applied }, 'migrations applied');

  const demo = config.seedDemoData ? await prepareDemo(services) : null;
  // A new PostgreSQL has no catalogs, and nothing else fills them (SEED_DEMO_DATA is off there)
  const catalogs = await countCatalogRows(services.db);
  const empty = emptyCatalogs(catalogs);
  if (empty.length) {
    logger.warn(
      { catalog_parts: catalogs.parts, vehicle_makes: catalogs.makes },
      'the parts or vehicle catalogs are empty (the catalog endpoints answer empty lists): load them with npm run catalog:seed',
    );
  }
  // set aside where OpenSearch answered the searches (npm run db:search-indexes): without them the
  // Postgres engine still answers, but by reading whole tables
  const unindexed = config.searchEngine === 'postgres' ? await missingSearchIndexes(services.db) : [];
  if (unindexed.length) {
    logger.warn(
      { missing: unindexed },
      'the Postgres engine lacks search indexes (searches read whole tables): build them with npm run db:search-indexes -- create',
    );
  }
  const running = await startServer(services);
  // before the banner: whoever reads it may stop the server at once
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const lines = [
    `Parts Stock Search API a correr em ${running.url}`,
    `  Painel: ${running.url}/dashboard`,
    `  Referência da API: ${running.url}/docs (OpenAPI: ${running.url}/openapi.json)`,
    ...(running.metricsUrl ? [`  Métricas: ${running.metricsUrl}`] : []),
  ];
  if (demo) {
    lines.push(
      '  Conta de demonstração:',
      `    e-mail:       ${demo.email}`,
      `    palavra-passe: ${demo.password}`,
      `    chave de API:  ${demo.apiKey}`,
      `  Experimente: curl -s -X POST ${running.url}/data/search -H 'X-API-Key: ${demo.apiKey}' -H 'Content-Type: application/json' -d '{"reference":"${demo.sampleReference}"}'`,
    );
  }
  if (empty.length) {
    const which =
      empty.length > 1
        ? 'os catálogos de peças e de veículos estão vazios; carregue-os'
        : `o catálogo de ${empty[0]} está vazio; carregue-o`;
    lines.push(`  Aviso: ${which} com npm run catalog:seed.`);
  }
  if (unindexed.length) {
    lines.push(
      `  Aviso: o motor Postgres não tem ${unindexed.length} dos seus índices de pesquisa; construa-os com npm run db:search-indexes -- create.`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(error.message + '\n');
  } else if (error instanceof ServiceError) {
    process.stderr.write(`Falha ao arrancar: ${operatorMessage(error)}\n`);
  } else {
    process.stderr.write(
      `Falha ao arrancar: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});

/**
 * npm run db:search-indexes -- [status | drop | create] [--force]
 *
 * The Postgres engine's search indexes (src/search/postgres/search-indexes.ts) in a deployment whose
 * searches OpenSearch answers: `drop` sets them aside, so every write to the stock (a seller's feed,
 * a price change, data:generate) maintains three indexes instead of ten; `create` builds them again
 * before the API goes back to the Postgres engine; `status` (the default) says where each stands.
 * Both run CONCURRENTLY: searches and writes go on meanwhile.
 */
import { Argument } from 'commander';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import {
  buildSearchIndexes,
  searchIndexStatus,
  setAsideSearchIndexes,
  type SearchIndexState,
} from '../src/search/postgres/search-indexes.js';
import { operatorCommand, parseCommandLine, runOperatorCommand } from '../src/operator-command.js';

const program = operatorCommand(
  'db:search-indexes',
  'Mostra, põe de parte (drop) ou reconstrói (create) os índices de pesquisa do motor Postgres.',
)
  .addArgument(
    new Argument('[ação]', 'status, drop ou create').choices(['status', 'drop', 'create']).default('status'),
  )
  .option('--force', 'drop mesmo com SEARCH_ENGINE=postgres (as pesquisas ficam sem os seus índices)', false);

const STATE_WORDS: Record<SearchIndexState, string> = {
  built: 'construído',
  set_aside: 'posto de parte (create reconstrói-o)',
  invalid: 'inválido: uma construção interrompida (create refá-la)',
  missing: 'em falta, sem definição guardada (volte a criá-lo à mão, ou reponha a migração que o criou)',
};

const megabytes = (bytes: number | null) => (bytes === null ? '' : ` ${(bytes / 1024 / 1024).toFixed(0)} MB`);

async function main(): Promise<number> {
  const mistake = parseCommandLine(program);
  if (mistake !== null) return mistake;
  const action = program.processedArgs[0] as 'status' | 'drop' | 'create';
  const { force } = program.opts<{ force: boolean }>();

  const config = loadConfig(process.env);
  if (!config.databaseUrl) {
    process.stderr.write(
      'Erro: DATABASE_URL não está definido. A base de dados embutida serve sempre o motor Postgres, que precisa destes índices.\n',
    );
    return 1;
  }
  if (action === 'drop' && config.searchEngine !== 'opensearch' && !force) {
    process.stderr.write(
      'Erro: SEARCH_ENGINE não é opensearch: estes índices servem as pesquisas do motor Postgres. ' +
        'Corra o comando com as variáveis da API (SEARCH_ENGINE=opensearch), ou com --force.\n',
    );
    return 1;
  }
  const database = await openDatabase({
    url: config.databaseUrl,
    poolSize: 2,
    applicationName: 'db:search-indexes',
  });
  try {
    await migrate(database.db);
    if (action === 'drop') {
      const dropped = await setAsideSearchIndexes(database.db, (name) =>
        process.stdout.write(`A pôr de parte ${name}…\n`),
      );
      process.stdout.write(
        dropped.length
          ? `${dropped.length} índices postos de parte. Antes de voltar ao motor Postgres: npm run db:search-indexes -- create\n`
          : 'Nenhum índice de pesquisa construído: nada a pôr de parte.\n',
      );
    } else if (action === 'create') {
      let shown = '';
      const { built, missing } = await buildSearchIndexes(database.db, (p) => {
        const line =
          p.total > 0
            ? `${p.name}: ${p.phase} ${Math.floor((100 * p.done) / p.total)} %`
            : `${p.name}: ${p.phase === 'waiting' ? 'a começar' : p.phase}`;
        if (line !== shown) process.stdout.write(`${line}\n`);
        shown = line;
      });
      process.stdout.write(`${built.length} índices construídos.\n`);
      if (missing.length) {
        process.stderr.write(`Erro: sem definição guardada, não foram construídos: ${missing.join(', ')}.\n`);
        return 1;
      }
    }
    const status = await searchIndexStatus(database.db);
    process.stdout.write(
      [
        'Índices de pesquisa do motor Postgres:',
        ...status.map((s) => `  ${s.name}: ${STATE_WORDS[s.state]}${megabytes(s.bytes)}`),
      ].join('\n') + '\n',
    );
    return 0;
  } finally {
    await database.close();
  }
}

await runOperatorCommand(main);

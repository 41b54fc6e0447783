import { describe, expect, it } from 'vitest';
import { runScript } from '../helpers/run-script.js';

const UNREACHABLE = 'postgres://postgres@127.0.0.1:1/nenhuma';
const SAID =
  'a base de dados não respondeu (connect ECONNREFUSED 127.0.0.1:1): confirme DATABASE_URL e que o PostgreSQL está a correr.';

/** Each operator command, as `npm run` starts it, with what it prefixes its failure with. */
const COMMANDS: { script: string; args: string[]; said: string; exit: number }[] = [
  { script: 'stock-languages.ts', args: [], said: `Erro: ${SAID}`, exit: 1 },
  { script: 'account-credits.ts', args: ['--email', 'ana@example.com'], said: `Erro: ${SAID}`, exit: 1 },
  { script: 'catalog-seed.ts', args: [], said: `Erro: ${SAID}`, exit: 1 },
  { script: 'search-indexes.ts', args: ['status'], said: `Erro: ${SAID}`, exit: 1 },
  { script: '../indexer/reindex.ts', args: [], said: `reindex falhou: ${SAID} O índice não mudou.`, exit: 1 },
  { script: '../indexer/verify-cli.ts', args: [], said: `index:verify falhou: ${SAID}`, exit: 2 },
  { script: '../indexer/disable.ts', args: [], said: `indexer:disable falhou: ${SAID}`, exit: 1 },
];

// Each case starts a command (tsx): slow on a loaded 2-core machine; they run side by side.
describe('operator commands with a database that does not answer', { timeout: 120_000 }, () => {
  it('each says so in one Portuguese line, without a stack, and exits with its failure code', async () => {
    const runs = await Promise.all(
      COMMANDS.map((c) =>
        runScript(c.script, c.args, {
          DATABASE_URL: UNREACHABLE,
          LOG_LEVEL: 'silent',
          SEARCH_ENGINE: 'opensearch',
          // nothing listens there: only the database is reached before failing
          OPENSEARCH_URL: 'http://127.0.0.1:1',
        }),
      ),
    );
    runs.forEach((run, i) => {
      const { script, said, exit } = COMMANDS[i]!;
      expect(run.stderr, script).toBe(`${said}\n`);
      expect(run.code, script).toBe(exit);
    });
  });
});

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
  { script: 'data-generate.ts', args: ['--items', '10'], said: `Erro: ${SAID}`, exit: 1 },
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

  it('the indexer and the feed worker log one fatal line saying why they could not start, and exit 1', async () => {
    const services = { indexer: '../indexer/main.ts', 'feed worker': '../src/feeds-main.ts' };
    const runs = await Promise.all(
      Object.values(services).map((script) =>
        runScript(script, [], {
          DATABASE_URL: UNREACHABLE,
          LOG_LEVEL: 'info',
          REDIS_URL: 'redis://127.0.0.1:1',
          OPENSEARCH_URL: 'http://127.0.0.1:1',
        }),
      ),
    );
    Object.keys(services).forEach((name, i) => {
      const run = runs[i]!;
      expect(run.code, name).toBe(1);
      const fatal = (run.stdout + run.stderr)
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string } })
        .filter((entry) => entry.level === 60);
      expect(fatal, name).toEqual([
        expect.objectContaining({
          msg: `the ${name} could not start`,
          err: expect.objectContaining({ message: 'connect ECONNREFUSED 127.0.0.1:1' }),
        }),
      ]);
    });
  });
});

/** Commands that act as soon as they start (the services among them): each reads its command line first. */
const ACTING: { script: string; name: string; mistakeExit: number }[] = [
  { script: '../indexer/reindex.ts', name: 'reindex', mistakeExit: 1 },
  { script: '../indexer/disable.ts', name: 'indexer:disable', mistakeExit: 1 },
  { script: '../indexer/verify-cli.ts', name: 'index:verify', mistakeExit: 2 },
  { script: '../indexer/main.ts', name: 'indexer', mistakeExit: 1 },
  { script: '../src/main.ts', name: 'start', mistakeExit: 1 },
  { script: '../src/feeds-main.ts', name: 'feeds', mistakeExit: 1 },
  { script: 'data-generate.ts', name: 'data:generate', mistakeExit: 1 },
];

describe(
  'commands that rebuild, drop or start: help and mistakes before anything is done',
  { timeout: 120_000 },
  () => {
    // The database does not answer: a command that tried to do its work would fail instead.
    const env = { DATABASE_URL: UNREACHABLE, LOG_LEVEL: 'silent', OPENSEARCH_URL: 'http://127.0.0.1:1' };

    it('--help shows the Portuguese help and exits 0 without reaching the database', async () => {
      const runs = await Promise.all(ACTING.map((c) => runScript(c.script, ['--help'], env)));
      runs.forEach((run, i) => {
        const { name } = ACTING[i]!;
        expect(run.stdout, name).toMatch(new RegExp(`^Utilização: ${name} \\[opções\\]\n`));
        expect(run.stdout, name).toContain('-h, --help');
        expect(run.stderr, name).toBe('');
        expect(run.code, name).toBe(0);
      });
    });

    it('an unknown option or a bad value is said in one line, and nothing is done', async () => {
      const cases = [
        ...ACTING.map((c) => ({ ...c, args: ['--agora'], said: /^Erro: Opção desconhecida: --agora\. / })),
        {
          ...ACTING[2]!,
          args: ['--range-size', '0'],
          said: /^Erro: Opção --range-size <n>: "0" não é válido: indique um número inteiro de 1 a 100000\.\n$/,
        },
        {
          ...ACTING[3]!,
          args: ['--metrics-port', 'x'],
          said: /^Erro: Opção --metrics-port <porta>: "x" não é válido: indique um número inteiro de 0 a 65535\.\n$/,
        },
      ];
      const runs = await Promise.all(cases.map((c) => runScript(c.script, c.args, env)));
      runs.forEach((run, i) => {
        const { name, args, said, mistakeExit } = cases[i]!;
        expect(run.stderr, `${name} ${args.join(' ')}`).toMatch(said);
        expect(run.stdout, name).toBe('');
        expect(run.code, name).toBe(mistakeExit);
      });
    });
  },
);

import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

interface Run {
  code: number | null;
  output: string;
}

/**
 * A run of the test command on one small file, with exactly the environment given (PATH and HOME
 * besides): what the run's global setup (test/helpers/global-setup.ts) makes of the machine.
 */
function testRun(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', 'test/unit/limited-address.test.ts'],
      { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: 'pipe' },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    // eslint-disable-next-line no-control-regex -- the colours vitest writes
    child.on('close', (code) => resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, '') }));
  });
}

/** Nothing the complete run needs: no services configured, chromium looked for where it is not. */
const NOTHING = { CHROMIUM_PATH: '/nonexistent/chromium' };
const LINES = [
  'DATABASE_URL não está definido',
  'REDIS_URL não está definido',
  'OPENSEARCH_URL não está definido',
  '/nonexistent/chromium não existe',
];

/**
 * In CI a missing dependency must fail the run, as a missing cluster always did: otherwise the
 * suites that need it are skipped and the run passes having tested less than what ships.
 */
describe('the test run and the machine it runs on', () => {
  it('with CI=true, refuses to run without PostgreSQL, Redis, OpenSearch or chromium, naming each', async () => {
    const run = await testRun({ ...NOTHING, CI: 'true' });
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain('CI=true: nada pode ser ignorado em CI');
    for (const line of LINES) expect(run.output, line).toContain(line);
    expect(run.output).not.toMatch(/Tests +\d+ passed/);
  });

  it('with CI=true, one missing is enough: REDIS_URL alone', async () => {
    const run = await testRun({
      CI: 'true',
      DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      OPENSEARCH_URL: process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200',
      CHROMIUM_PATH: process.execPath, // a file that exists: chromium is not what is missing here
    });
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain('- REDIS_URL não está definido');
    for (const line of LINES.filter((l) => !l.startsWith('REDIS_URL')))
      expect(run.output, line).not.toContain(line);
  });

  it('with a Redis configured that does not answer, refuses the run in CI or not', async () => {
    const run = await testRun({ ...NOTHING, REDIS_URL: 'redis://127.0.0.1:1' });
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain('REDIS_URL=redis://127.0.0.1:1 não responde');
  });

  it('outside CI, runs what it can and says in one line each what is skipped', async () => {
    const run = await testRun(NOTHING);
    expect(run.code, run.output).toBe(0);
    for (const line of LINES) expect(run.output, line).toContain(`[test] ${line}: `);
    expect(run.output).toMatch(/Tests +\d+ passed/);
  });
});

import { execFile, execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { IN_CI } from '../helpers/test-env.js';

/**
 * A Java client generated from the document the API serves (openapi-generator-maven-plugin 7.25.0,
 * `-g java --library native`, clients/java/pom.xml) builds with Maven and runs the example's search
 * flow (clients/java/src/main/java/pt/pecas/stock/example/SearchFlow.java) against the API. Maven
 * runs offline first (~/.m2 holds the generator once fetched), online only when that fails.
 */

const PROJECT = resolve(import.meta.dirname, '../../clients/java');
const BUILD = resolve(import.meta.dirname, '../../test-output/clients/java');
const run = promisify(execFile);

const hasMaven = (() => {
  try {
    execFileSync('mvn', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasMaven) {
  if (IN_CI)
    throw new Error('mvn is missing: the Java client test needs Maven and a JDK 17 (apt-get install maven)');
  console.warn('mvn not found: the Java client test is skipped');
}

/** mvn with these goals, offline first; its output, or a failure carrying it. */
async function maven(goals: string[], properties: Record<string, string>): Promise<string> {
  const args = (offline: boolean) => [
    '-B',
    ...(offline ? ['-o'] : []),
    `-Dpss.build.dir=${BUILD}`,
    ...Object.entries(properties).map(([k, v]) => `-D${k}=${v}`),
    ...goals,
  ];
  const attempt = (offline: boolean) =>
    run('mvn', args(offline), { cwd: PROJECT, maxBuffer: 64 * 1024 * 1024 }).then(
      ({ stdout }) => ({ ok: true as const, output: stdout }),
      (error: { stdout?: string; stderr?: string; message: string }) => ({
        ok: false as const,
        output: `${error.stdout ?? ''}\n${error.stderr ?? error.message}`,
      }),
    );
  let result = await attempt(true);
  // offline and something is not in ~/.m2 yet: fetch it once
  if (
    !result.ok &&
    /offline mode|has not been downloaded from it before|Cannot access .* in offline/i.test(result.output)
  ) {
    result = await attempt(false);
  }
  if (!result.ok) throw new Error(`mvn ${goals.join(' ')} failed:\n${result.output.slice(-20_000)}`);
  return result.output;
}

describe.skipIf(!hasMaven)('a Java client generated from /openapi.json', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
    await loadStockFixture(app.services.db);
  });
  afterAll(() => app?.close());

  it('builds with Maven and runs the search flow against the API', async () => {
    const output = await maven(['clean', 'compile', 'exec:java'], { 'pss.base.url': app.baseUrl });
    const lines = output.split('\n');
    const line = (step: string) => lines.find((l) => l.startsWith(`${step}: `)) ?? '';
    expect(line('first')).toMatch(/^first: credits_spent=1 token_status=none total=\d+ items=/);
    expect(line('second')).toBe('second: credits_spent=0 token_status=valid page=2');
    expect(line('stats')).toMatch(/^stats: credits_spent=1 median=\d/);
    expect(line('balance')).toBe('balance: 48');
    expect(line('history')).toBe('history: search 0 valid, search -1 none');
    expect(line('error')).toBe('error: VALIDATION_ERROR corpo.per_page: maximum');
    expect(lines).toContain('search flow: ok');
  }, 600_000);
});

import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A TypeScript client generated from the document the API serves (@hey-api/openapi-ts, the
 * command docs/api.md gives integrators) compiles clients/typescript/example.ts under --strict,
 * with the type checks that must fail (a search without a search field), and runs the example's
 * flow against the API: register, log in, create a key, search, the next page with the token, the
 * statistics, the balance, the history, and an error read from its envelope.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const WORK = join(ROOT, 'test-output', 'clients', 'typescript');
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const run = promisify(execFile);

/** Runs a command; on failure, its output is the assertion's message. */
async function sh(command: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await run(command, args, {
      cwd: WORK,
      env: { ...process.env, ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(' ')} failed:\n${failed.stdout ?? ''}\n${failed.stderr ?? failed.message}`,
      { cause: error },
    );
  }
}

describe('a TypeScript client generated from /openapi.json', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
    await loadStockFixture(app.services.db);
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(WORK, { recursive: true });
    const document = await (await fetch(`${app.baseUrl}/openapi.json`)).text();
    writeFileSync(join(WORK, 'openapi.json'), document);
    for (const file of ['example.ts', 'type-checks.ts', 'tsconfig.json']) {
      cpSync(join(ROOT, 'clients', 'typescript', file), join(WORK, file));
    }
  });
  afterAll(() => app.close());

  it('is generated, and compiles the example and its type checks under --strict', async () => {
    await sh(bin('openapi-ts'), ['-i', 'openapi.json', '-o', 'generated', '-c', '@hey-api/client-fetch']);
    await sh(bin('tsc'), ['-p', 'tsconfig.json', '--strict']);
  }, 180_000);

  it('runs the example flow against the API', async () => {
    const output = await sh('node', [join('out', 'example.js')], { PSS_BASE_URL: app.baseUrl });
    const seen = JSON.parse(output.trim().split('\n').at(-1)!) as {
      first: { credits_spent: number; token_status: string; total: number; items: string[] };
      second: { credits_spent: number; token_status: string; page: number };
      stats: {
        credits_spent: number;
        median: number | null;
        by_condition: Record<string, { count: number }>;
      };
      balance: number;
      history: [string, number, string | null][];
      error: { code: string; fields: string[] };
    };
    expect(seen.first).toMatchObject({ credits_spent: 1, token_status: 'none' });
    expect(seen.first.total).toBeGreaterThan(2);
    expect(seen.first.items).toHaveLength(2);
    expect(seen.first.items[0]).toMatch(/ EUR$/);
    expect(seen.second).toEqual({ credits_spent: 0, token_status: 'valid', page: 2 });
    expect(seen.stats.credits_spent).toBe(1);
    expect(seen.stats.median).toEqual(expect.any(Number));
    expect(Object.keys(seen.stats.by_condition).length).toBeGreaterThan(0);
    expect(seen.balance).toBe(48);
    expect(seen.history).toEqual([
      ['search', 0, 'valid'],
      ['search', -1, 'none'],
    ]);
    expect(seen.error).toEqual({ code: 'VALIDATION_ERROR', fields: ['corpo.per_page: maximum'] });
  }, 60_000);
});

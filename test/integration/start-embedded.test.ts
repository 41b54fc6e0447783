import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from '../helpers/run-script.js';

interface Started {
  child: ChildProcess;
  url: string;
  apiKey: string;
  reference: string;
  stdout: () => string;
  stderr: () => string;
}

/** `npm start` in the embedded default (no DATABASE_URL, no REDIS_URL), until it prints the demo account. */
function start(dataDir: string): Promise<Started> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DEMO_ITEMS: '1000',
    LOG_LEVEL: 'warn',
  };
  for (const name of [
    'DATABASE_URL',
    'REDIS_URL',
    'SEARCH_ENGINE',
    'OPENSEARCH_URL',
    'SEARCH_TOKEN_SECRET',
    'SEED_DEMO_DATA',
  ])
    delete env[name];
  // What `npm start` runs (node --import tsx src/main.ts), without npm: start-stop.test.ts has npm.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    // 'close', not 'exit': by then its output has been read to the end (the refusal's reason)
    child.on('close', (code) =>
      reject(new Error(`exited with ${code} before it was ready:\n${stdout}\n${stderr}`)),
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /a correr em (http:\/\/\S+)/.exec(stdout)?.[1];
      const apiKey = /chave de API: +(psk_\w+)/.exec(stdout)?.[1];
      const reference = /"reference":"([^"]+)"/.exec(stdout)?.[1];
      if (url && apiKey && reference) {
        child.removeAllListeners('close');
        resolve({ child, url, apiKey, reference, stdout: () => stdout, stderr: () => stderr });
      }
    });
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('npm start on an empty data dir', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pss-start-'));
  const running: ChildProcess[] = [];
  afterAll(() => {
    for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads the demo data, answers with a working demo account, and prints the same one on the next start', async () => {
    const first = await start(dataDir);
    running.push(first.child);
    expect((await fetch(`${first.url}/ready`)).status).toBe(200);
    expect(first.stderr()).toContain('Artigos em stock: concluído');

    const search = await fetch(`${first.url}/data/search`, {
      method: 'POST',
      headers: { 'X-API-Key': first.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ reference: first.reference }),
    });
    expect(search.status).toBe(200);
    const body = (await search.json()) as { total: number; credits_spent: number };
    expect(body.total).toBeGreaterThanOrEqual(2);
    expect(body.credits_spent).toBe(1);

    // While it runs, nothing else may open its embedded database: an operator command and a second
    // start are refused at once, saying why, and the running API is unharmed.
    const email = /e-mail: +(\S+)/.exec(first.stdout())![1]!;
    const plan = await runScript('account-plan.ts', ['--email', email, '--daily-credits', '5'], {
      DATA_DIR: dataDir,
    });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/está a ser usado por outro processo.*\(DATA_DIR_IN_USE\)/s);
    await expect(start(dataDir)).rejects.toThrow(/está a ser usado por outro processo.*\(DATA_DIR_IN_USE\)/s);
    expect((await fetch(`${first.url}/ready`)).status).toBe(200);
    expect(await stop(first.child)).toBe(0);

    // once the API stopped, the command opens it
    const planned = await runScript('account-plan.ts', ['--email', email, '--daily-credits', '5'], {
      DATA_DIR: dataDir,
    });
    expect(planned.stderr).toBe('');
    expect(planned.code).toBe(0);

    const second = await start(dataDir);
    running.push(second.child);
    expect(second.apiKey).toBe(first.apiKey);
    expect(second.stdout()).toContain('demo@');
    expect(second.stderr()).not.toContain('Artigos em stock');
    expect((await fetch(`${second.url}/ready`)).status).toBe(200);
    expect(await stop(second.child)).toBe(0);
  }, 120_000);
});

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAN_RUN_INDEXER,
  clusterClient,
  dropAlias,
  dropIndexerQueue,
  TEST_OPENSEARCH_URL,
  uniqueAlias,
} from '../helpers/opensearch.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';
import { waitUntil } from '../helpers/wait-until.js';

/**
 * How an operator starts and stops the pieces: `npm start` and `npm run indexer` as typed, signals
 * sent to the npm process (what a supervisor, `kill <pid>` or a closed terminal sends), a server
 * killed outright, and the demo account of each database.
 */

/** The processes under `pid` (its children, theirs…), read from /proc. */
function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
    } catch {
      // ended while listed
    }
  }
  const below = (p: number): number[] => (parents.get(p) ?? []).flatMap((c) => [c, ...below(c)]);
  return below(pid);
}

const commandLine = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
};

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

interface Started {
  child: ChildProcess;
  url: string;
  password: string | null;
  output: () => string;
}

/** The environment of the embedded default: nothing of the machine's services. */
function embeddedEnv(dataDir: string, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'REDIS_URL',
    'SEARCH_ENGINE',
    'OPENSEARCH_URL',
    'OPENSEARCH_INDEX',
    'SEARCH_TOKEN_SECRET',
    'SEED_DEMO_DATA',
  ])
    delete base[name];
  return {
    ...base,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DEMO_ITEMS: '200',
    LOG_LEVEL: 'warn',
    ...env,
  };
}

/** `command args` until it prints where it listens (and the demo account when there is one). */
function start(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(command, args, { env, stdio: 'pipe' });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`exited with ${code} before it was ready:\n${output}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /a correr em (http:\/\/\S+)/.exec(output)?.[1];
      const demo = /Conta de demonstração/.test(output);
      const password = /palavra-passe: +(\S+)/.exec(output)?.[1] ?? null;
      // the banner is one write: once the address is there, so is the rest of it
      if (url && (!demo || password)) {
        child.removeAllListeners('close');
        resolve({ child, url, password, output: () => output });
      }
    });
  });
}

const npmStart = (dataDir: string, env: Record<string, string> = {}) =>
  start('npm', ['start'], embeddedEnv(dataDir, env));

/** Sends `signal` to the npm process alone, as `kill -TERM <pid>` does, and waits for it to end. */
function signalled(
  child: ChildProcess,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    child.once('exit', (code, by) => resolve({ code, signal: by }));
    child.kill(signal);
  });
}

const refusesConnections = (url: string) =>
  fetch(`${url}/health`).then(
    () => false,
    () => true,
  );

describe.skipIf(process.platform !== 'linux')(
  'starting and stopping the pieces',
  { timeout: 240_000 },
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pss-start-stop-'));
    const children: ChildProcess[] = [];
    let embeddedPassword: string;
    afterAll(() => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });

    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      it(`npm start ends on ${signal} sent to the npm process: it exits, the port is free, no process of it is left`, async () => {
        // (info: the server's own line saying which signal stopped it)
        const server = await npmStart(dataDir, { LOG_LEVEL: 'info' });
        children.push(server.child);
        embeddedPassword ??= server.password!;
        const tree = processTree(server.child.pid!);
        // npm runs the server itself (exec): no shell or tsx process between them to lose the signal
        expect(commandLine(tree[0]!)).toMatch(/node --import tsx src\/main\.ts/);
        expect((await fetch(`${server.url}/ready`)).status).toBe(200);

        expect(await signalled(server.child, signal)).toEqual({ code: 0, signal: null });
        expect(await refusesConnections(server.url)).toBe(true);
        await waitUntil(() => tree.every((pid) => !running(pid)), 'every process under npm ended', 5_000);
        expect(server.output()).toContain(`"signal":"${signal}"`);
      });
    }

    it('a server killed outright (SIGKILL) leaves nothing in the way: the next start takes DATA_DIR at once, and two live ones are still kept apart', async () => {
      const killed = await npmStart(dataDir);
      children.push(killed.child);
      const tree = processTree(killed.child.pid!);
      for (const pid of [killed.child.pid!, ...tree]) process.kill(pid, 'SIGKILL');
      await waitUntil(() => tree.every((pid) => !running(pid)), 'every process under npm ended', 5_000);

      const next = await npmStart(dataDir);
      children.push(next.child);
      expect(next.output()).not.toContain('DATA_DIR_IN_USE');
      expect(next.password).toBe(embeddedPassword);
      const server = processTree(next.child.pid!)[0]!;

      // a second server on the same DATA_DIR is refused at once, naming the one that holds it
      await expect(npmStart(dataDir)).rejects.toThrow(
        new RegExp(`está a ser usado por outro processo \\(pid ${server},.*\\(DATA_DIR_IN_USE\\)`, 's'),
      );
      expect((await fetch(`${next.url}/ready`)).status).toBe(200);
      expect(await signalled(next.child, 'SIGTERM')).toEqual({ code: 0, signal: null });
    });

    describe.skipIf(!TEST_DATABASE_URL)('with a PostgreSQL seeded by SEED_DEMO_DATA=true', () => {
      let database: TestDatabase;
      beforeAll(async () => {
        database = await createTestDatabase();
      });
      afterAll(() => database?.drop());

      it("keeps that database's demo account in a file of its own: the embedded start keeps its password", async () => {
        const env = embeddedEnv(dataDir, {
          DATABASE_URL: database.url!,
          SEED_DEMO_DATA: 'true',
          SEARCH_TOKEN_SECRET: 'start-stop-test-secret-start-stop-test-0',
        });
        const seeded = await start(process.execPath, ['--import', 'tsx', 'src/main.ts'], env);
        children.push(seeded.child);
        expect(seeded.password).not.toBeNull();
        expect(seeded.password).not.toBe(embeddedPassword);
        expect(await signalled(seeded.child, 'SIGTERM')).toEqual({ code: 0, signal: null });
        const name = new URL(database.url!).pathname.slice(1);
        expect(
          readdirSync(dataDir)
            .filter((file) => file.startsWith('demo-account'))
            .sort(),
        ).toEqual(['demo-account.json', `demo-account.postgres-127.0.0.1-5432-${name}.json`]);

        const embedded = await npmStart(dataDir);
        children.push(embedded.child);
        expect(embedded.password).toBe(embeddedPassword);
        expect(await signalled(embedded.child, 'SIGTERM')).toEqual({ code: 0, signal: null });
      });
    });

    it.skipIf(!CAN_RUN_INDEXER)(
      'npm run indexer ends on SIGTERM sent to the npm process, leaving no process',
      async () => {
        const database = await createTestDatabase();
        const alias = uniqueAlias('start_stop');
        try {
          const env: NodeJS.ProcessEnv = {
            ...process.env,
            DATABASE_URL: database.url!,
            REDIS_URL: TEST_REDIS_URL!,
            OPENSEARCH_URL: TEST_OPENSEARCH_URL!,
            OPENSEARCH_INDEX: alias,
            LOG_LEVEL: 'info',
          };
          const indexer = spawn('npm', ['run', 'indexer', '--', '--metrics-port', '0'], {
            env,
            stdio: 'pipe',
          });
          children.push(indexer);
          let output = '';
          indexer.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
          indexer.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          // settled: its index built and the first verification pass over it ended
          await waitUntil(
            () => output.includes('a pass over the whole index ended') || indexer.exitCode !== null,
            'the indexer settled',
            60_000,
          );
          expect(output).toContain('indexer started');
          const tree = processTree(indexer.pid!);
          expect(commandLine(tree[0]!)).toMatch(/node --import tsx indexer\/main\.ts/);

          expect(await signalled(indexer, 'SIGTERM')).toEqual({ code: 0, signal: null });
          expect(output).toContain('indexer stopped');
          await waitUntil(() => tree.every((pid) => !running(pid)), 'every process under npm ended', 5_000);
        } finally {
          for (const pid of processTree(process.pid))
            if (commandLine(pid).includes('indexer/main.ts')) process.kill(pid, 'SIGKILL');
          await dropAlias(clusterClient(), alias);
          await dropIndexerQueue(alias);
          await database.drop();
        }
      },
    );
  },
);

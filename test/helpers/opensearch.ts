import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Client } from '@opensearch-project/opensearch';
import { createClusterClient } from '../../indexer/cluster.js';
import { versionedIndices } from '../../indexer/index-admin.js';
import { createIndexQueue, redisConnection } from '../../indexer/index-queue.js';
import { TEST_DATABASE_URL, TEST_OPENSEARCH_URL, TEST_REDIS_URL } from './test-env.js';

/**
 * The live cluster the tests run on (`npm run opensearch:start`). The run's global setup has
 * already refused a missing cluster under CI=true and one that does not answer; without it the
 * OpenSearch cases are skipped with the reason printed once.
 */
export { TEST_OPENSEARCH_URL };

/** The indexer needs PostgreSQL and Redis besides the cluster. */
export const CAN_RUN_INDEXER = Boolean(TEST_OPENSEARCH_URL && TEST_DATABASE_URL && TEST_REDIS_URL);

export const clusterClient = (): Client => createClusterClient(TEST_OPENSEARCH_URL!);

/** A throwaway alias of this test run (its indices are `<alias>_vN`). */
export const uniqueAlias = (prefix: string): string => `${prefix}_${randomBytes(4).toString('hex')}`;

/** Removes every index of an alias, and the alias with them. */
export async function dropAlias(client: Client, alias: string): Promise<void> {
  const indices = await versionedIndices(client, alias).catch(() => []);
  if (indices.length) await client.indices.delete({ index: indices, ignore_unavailable: true });
}

/** The BullMQ queue the indexer of an alias uses, emptied and closed (after a test). */
export async function dropIndexerQueue(alias: string): Promise<void> {
  const queue = createIndexQueue(redisConnection(TEST_REDIS_URL!, 'producer'), alias);
  await queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
}

export interface IndexerProcess {
  child: ChildProcess;
  output(): string;
  /** resolves once the output has shown `text`; fails with the output after `ms` */
  waitForOutput(text: string | RegExp, ms?: number): Promise<void>;
  /** GET /metrics of the process */
  metricsUrl(): string;
  /** GET /ready of the process */
  readyUrl(): string;
  stop(): Promise<number | null>;
}

/**
 * `npm run indexer` as its own process (one node process, so SIGTERM reaches the indexer itself),
 * for a database and an alias of the test's. Resolves once it has started following changes (after
 * building the index on a first start).
 */
export async function startIndexerProcess(options: {
  databaseUrl: string;
  alias: string;
  opensearchUrl?: string;
  env?: Record<string, string>;
}): Promise<IndexerProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'indexer/main.ts', '--metrics-port', '0', '--log-every', '1'],
    {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LOG_LEVEL: 'info',
        DATABASE_URL: options.databaseUrl,
        REDIS_URL: TEST_REDIS_URL!,
        OPENSEARCH_URL: options.opensearchUrl ?? TEST_OPENSEARCH_URL!,
        OPENSEARCH_INDEX: options.alias,
        ...options.env,
      },
      stdio: 'pipe',
    },
  );
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const waitForOutput = async (text: string | RegExp, ms = 60_000) => {
    const until = Date.now() + ms;
    const seen = () => (typeof text === 'string' ? output.includes(text) : text.test(output));
    while (!seen()) {
      if (child.exitCode !== null) throw new Error(`the indexer exited (${child.exitCode}):\n${output}`);
      if (Date.now() > until)
        throw new Error(`no "${String(text)}" from the indexer in ${ms} ms:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  try {
    await waitForOutput('indexer started');
  } catch (error) {
    // never left running behind a test that gave up on it
    if (child.exitCode === null) child.kill('SIGKILL');
    throw error;
  }
  return {
    child,
    output: () => output,
    waitForOutput,
    metricsUrl: () => `http://127.0.0.1:${/"metricsUrl":"http:\/\/[^:]+:(\d+)/.exec(output)![1]}/metrics`,
    readyUrl: () => `http://127.0.0.1:${/"metricsUrl":"http:\/\/[^:]+:(\d+)/.exec(output)![1]}/ready`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** The shared poll (test/helpers/wait-until.ts), where the OpenSearch suites have always found it. */
export { waitUntil } from './wait-until.js';

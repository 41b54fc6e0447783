import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The API as its own process (`node --import tsx src/main.ts`, as `npm start` runs it), for tests
 * whose point is that the process survives something: a dependency killed, its connections cut.
 */
export interface ApiProcess {
  child: ChildProcess;
  url: string;
  /** everything the process wrote to stderr and stdout so far */
  output(): string;
  /** true while the process has not exited */
  alive(): boolean;
  stop(): Promise<number | null>;
}

/** Environment of a test API process: quiet, no demo data, limits out of the way, on top of `env`. */
function apiEnvironment(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SEARCH_ENGINE', 'OPENSEARCH_URL', 'OPENSEARCH_INDEX'])
    delete base[name];
  return {
    ...base,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED_DEMO_DATA: 'false',
    SEARCH_TOKEN_SECRET: 'test-secret-test-secret-test-secret-0123',
    STATS_CACHE_SECONDS: '0',
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_HOUR: '1000000',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
    REGISTRATIONS_PER_IP_PER_HOUR: '1000000',
    SHUTDOWN_TIMEOUT_MS: '2000',
    ...env,
  };
}

export function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: apiEnvironment(env),
    stdio: 'pipe',
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = () =>
    new Promise<number | null>((resolve) => {
      if (!alive()) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    const early = (code: number | null) =>
      reject(new Error(`the API exited with ${code} before it was ready:\n${output}`));
    child.once('exit', early);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /a correr em (http:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      child.removeListener('exit', early);
      resolve({ child, url, output: () => output, alive, stop });
    });
  });
}

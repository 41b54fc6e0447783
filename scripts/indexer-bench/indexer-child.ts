import { spawn, type ChildProcess } from 'node:child_process';
import { compiled } from '../bench-server-process.js';

/** `npm run indexer` as the benchmarks run it: compiled, its own process, its log kept. */
export interface IndexerChild {
  child: ChildProcess;
  output(): string;
  /** http://127.0.0.1:port (GET /metrics, GET /ready) */
  metricsBase: string;
  /** SIGKILL, as a crash: nothing finished, nothing closed */
  kill(): Promise<void>;
  /** SIGTERM: finishes the bulk requests in hand */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** Starts the compiled indexer with `env` over this process's; resolves once it follows changes. */
export async function startIndexerChild(
  env: Record<string, string>,
  startTimeoutMs = 600_000,
): Promise<IndexerChild> {
  const child = spawn(
    process.execPath,
    [compiled('indexer/main.js'), '--metrics-port', '0', '--log-every', '5'],
    {
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const until = Date.now() + startTimeoutMs;
  while (!output.includes('"indexer started"')) {
    if (child.exitCode !== null) throw new Error(`o indexador terminou:\n${output}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`o indexador não arrancou em ${startTimeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const port = /"metricsUrl":"http:\/\/[^:]+:(\d+)/.exec(output)![1];
  return {
    child,
    output: () => output,
    metricsBase: `http://127.0.0.1:${port}`,
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** A counter or gauge of the indexer's /metrics (0 when absent or unreachable). */
export async function indexerMetric(base: string, name: string): Promise<number> {
  try {
    const text = await (await fetch(`${base}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    return line ? Number(line.slice(name.length + 1)) : 0;
  } catch {
    return 0;
  }
}

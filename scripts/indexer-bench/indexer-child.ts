import { startCompiledChild, type CompiledChild } from '../bench-server-process.js';

/** `npm run indexer` as the benchmarks run it: compiled, its own process, its log kept. */
export interface IndexerChild extends CompiledChild {
  /** http://127.0.0.1:port (GET /metrics, GET /ready) */
  metricsBase: string;
}

/** Starts the compiled indexer with `env` over this process's; resolves once it follows changes. */
export async function startIndexerChild(
  env: Record<string, string>,
  startTimeoutMs = 600_000,
): Promise<IndexerChild> {
  const indexer = await startCompiledChild(
    'indexer/main.js',
    ['--metrics-port', '0', '--log-every', '5'],
    env,
    'indexer started',
    startTimeoutMs,
  );
  const port = /"metricsUrl":"http:\/\/[^:]+:(\d+)/.exec(indexer.output())![1];
  return { ...indexer, metricsBase: `http://127.0.0.1:${port}` };
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

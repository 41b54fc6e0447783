import { spawn } from 'node:child_process';
import type { Client } from '@opensearch-project/opensearch';
import { createClusterClient } from '../../indexer/cluster.js';
import type { ClusterConnection } from '../../src/config.js';
import { liveMappingVersion, mappingVersion } from '../../indexer/index-admin.js';

export interface ReindexFigures {
  documents: number;
  seconds: number;
  docsPerSecond: number;
}

/**
 * The index the OpenSearch engine is measured on: rebuilt by `npm run reindex` (the real command,
 * its progress bar shown) when asked, when it is missing, of another mapping version than this
 * build's (a newer one too: builds of two commits whose mappings differ, measured in turn, need an
 * alias each, or each run rebuilds the other's index), or holds another number of documents than
 * the stock.
 */
export async function ensureIndex(
  connection: ClusterConnection,
  alias: string,
  items: number,
  force: boolean,
): Promise<ReindexFigures | null> {
  const client = createClusterClient(connection);
  try {
    const live = await liveMappingVersion(client, alias);
    const count = live === null ? -1 : Number((await client.count({ index: alias })).body.count);
    if (!force && live === mappingVersion() && count === items) {
      console.log(`Índice ${alias} em dia (${count.toLocaleString('pt-PT')} documentos): não reconstruído.`);
      return null;
    }
    console.log(`A reconstruir o índice ${alias} (npm run reindex)…`);
    const figures = await runReindex(alias);
    await mergesSettled(client);
    return figures;
  } finally {
    await client.close();
  }
}

/**
 * A freshly loaded index goes on merging its segments for a while, on the same cores the
 * measurement uses: nothing is measured until the cluster has had no merge running for 5 s.
 */
export async function mergesSettled(client: Client): Promise<void> {
  const started = Date.now();
  let quietSince = Date.now();
  process.stdout.write('À espera que o OpenSearch acabe de fundir segmentos…');
  while (Date.now() - quietSince < 5_000) {
    const stats = (await client.nodes.stats({ metric: ['indices'], index_metric: ['merge'] }))
      .body as unknown as {
      nodes: Record<string, { indices: { merges: { current: number } } }>;
    };
    const running = Object.values(stats.nodes).reduce((n, node) => n + node.indices.merges.current, 0);
    if (running > 0) quietSince = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  process.stdout.write(` ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}

/** Runs `npm run reindex` for `alias` and reads its closing line: "… N documentos em S s (R docs/s) …". */
function runReindex(alias: string): Promise<ReindexFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'reindex'], {
      env: { ...process.env, OPENSEARCH_INDEX: alias, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('exit', (code) => {
      const figures = /(\d+) documentos em ([\d.]+) s \((\d+) docs\/s\)/.exec(output);
      if (code !== 0 || !figures) return reject(new Error(`npm run reindex falhou (código ${code})`));
      resolve({
        documents: Number(figures[1]),
        seconds: Number(figures[2]),
        docsPerSecond: Number(figures[3]),
      });
    });
  });
}

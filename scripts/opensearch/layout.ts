/**
 * The pinned OpenSearch version and where everything lives under .cache/opensearch (git-ignored):
 *
 *   .cache/opensearch/2.19.6/            the distribution, assembled once, then read-only
 *   .cache/opensearch/cluster-9200/      one cluster per HTTP port, kept between restarts
 *     node-1/{config,data,logs,tmp}, node-1/opensearch.pid, node-1/console.log
 *     node-2/…                           only with --nodes 2 (HTTP port + 1)
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The newest 2.19.x with all three artifacts on Maven Central (the integ-test zip and the
 * analysis-common and mapper-extras-client modules). 3.x needs JDK 21. docker-compose.yml pins
 * the same version: change both together.
 */
export const OPENSEARCH_VERSION = '2.19.6';
export const CLUSTER_NAME = 'pss-local';
export const MAX_NODES = 2;
/** Transport ports sit 100 above the HTTP ports, as 9300 sits above 9200 by default. */
const TRANSPORT_OFFSET = 100;
/** The last HTTP port that leaves room for node 2 and its transport port below 65536. */
export const MAX_PORT = 65535 - TRANSPORT_OFFSET - (MAX_NODES - 1);
export const MIN_PORT = 1024;

export const cacheRoot = fileURLToPath(new URL('../../.cache/opensearch', import.meta.url));
export const homeDir = join(cacheRoot, OPENSEARCH_VERSION);

export interface NodeLayout {
  /** 1 or 2. */
  index: number;
  name: string;
  httpPort: number;
  transportPort: number;
  dir: string;
  configDir: string;
  dataDir: string;
  logsDir: string;
  /** The JVM's java.io.tmpdir; the launcher would otherwise leave a new /tmp/opensearch-* each start. */
  tmpDir: string;
  pidFile: string;
  /** stdout/stderr of the launcher: the only trace of a failure before logging is configured. */
  consoleLog: string;
  /** Written by log4j, named after the cluster. */
  mainLog: string;
}

export function clusterDir(port: number): string {
  return join(cacheRoot, `cluster-${port}`);
}

/** The nodes of the cluster whose first node answers HTTP on `port`. */
export function nodeLayouts(port: number, count: number): NodeLayout[] {
  return Array.from({ length: count }, (_, i) => {
    const index = i + 1;
    const dir = join(clusterDir(port), `node-${index}`);
    const logsDir = join(dir, 'logs');
    return {
      index,
      name: `${CLUSTER_NAME}-${port}-${index}`,
      httpPort: port + i,
      transportPort: port + i + TRANSPORT_OFFSET,
      dir,
      configDir: join(dir, 'config'),
      dataDir: join(dir, 'data'),
      logsDir,
      tmpDir: join(dir, 'tmp'),
      pidFile: join(dir, 'opensearch.pid'),
      consoleLog: join(dir, 'console.log'),
      mainLog: join(logsDir, `${CLUSTER_NAME}.log`),
    };
  });
}

export function clusterUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

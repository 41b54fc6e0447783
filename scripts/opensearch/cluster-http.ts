/** What answers on a port, and waiting for a starting cluster to become healthy. */
import { connect } from 'node:net';
import { clusterUrl } from './layout.js';
import { sleep } from './node-process.js';

export type Probe =
  | { kind: 'free' }
  | { kind: 'opensearch'; clusterName: string; version: string }
  /** Something listens but does not answer like OpenSearch (or at all). */
  | { kind: 'other' };

/** Looks at a port: free, an OpenSearch (which cluster, which version) or anything else. */
export async function probe(port: number): Promise<Probe> {
  if (!(await listening(port))) return { kind: 'free' };
  try {
    const response = await fetch(`${clusterUrl(port)}/`, { signal: AbortSignal.timeout(3000) });
    const body = (await response.json()) as { cluster_name?: string; version?: { number?: string } };
    if (typeof body.cluster_name === 'string' && typeof body.version?.number === 'string') {
      return { kind: 'opensearch', clusterName: body.cluster_name, version: body.version.number };
    }
  } catch {
    // Not HTTP, not JSON, or too slow: not something we can use.
  }
  return { kind: 'other' };
}

/** Whether anything accepts TCP connections on 127.0.0.1:port (for the transport ports too). */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.setTimeout(2000);
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(true));
    socket.once('error', () => done(false));
  });
}

export interface HealthWait {
  port: number;
  nodes: number;
  timeoutMs: number;
  /** False once a node process is known to have died: no point in waiting any longer. */
  stillStarting: () => boolean;
  /** Called every few seconds while waiting, to show progress. */
  onTick: () => void;
}

const TICK_MS = 3000;

/**
 * Polls _cluster/health until the cluster is yellow with one node, green with all of two (a
 * replica needs the second node). Each request waits on the server side for up to 2 s.
 */
export async function waitForHealth(wait: HealthWait): Promise<'healthy' | 'died' | 'timeout'> {
  const status = wait.nodes > 1 ? 'green' : 'yellow';
  const url = `${clusterUrl(wait.port)}/_cluster/health?wait_for_status=${status}&wait_for_nodes=${wait.nodes}&timeout=2s`;
  const deadline = Date.now() + wait.timeoutMs;
  let nextTick = Date.now() + TICK_MS;
  while (Date.now() < deadline) {
    const started = Date.now();
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      const body = (await response.json()) as { timed_out?: boolean };
      if (response.ok && body.timed_out === false) return 'healthy';
    } catch {
      // Not listening yet.
    }
    if (!wait.stillStarting()) return 'died';
    if (Date.now() >= nextTick) {
      wait.onTick();
      nextTick = Date.now() + TICK_MS;
    }
    await sleep(Math.max(0, 500 - (Date.now() - started)));
  }
  return 'timeout';
}

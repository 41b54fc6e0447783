/** What the benchmark scripts share: their config, the bare baseline server, the stop message. */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@opensearch-project/opensearch';
import type Koa from 'koa';
import { createClusterClient } from '../indexer/cluster.js';
import { clusterConnection, loadConfig, type Config } from '../src/config.js';
import type { RunningServer } from '../src/server.js';

/** The environment's settings, quiet, no demo data, a fixed token secret unless one is given. */
export function benchConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    SEED_DEMO_DATA: 'false',
    SEARCH_TOKEN_SECRET: process.env.SEARCH_TOKEN_SECRET ?? 'bench-secret-bench-secret-bench-secret-00',
    ...overrides,
  });
}

/**
 * A client of the cluster at OPENSEARCH_URL (with the credentials and CA the configuration names),
 * for a script that measures the cluster itself; without one the script ends saying how to start it.
 */
export function clusterClientOrExit(): Client {
  const connection = clusterConnection(process.env);
  if (!connection) {
    console.error('OPENSEARCH_URL não está definido: inicie um cluster com npm run opensearch:start.');
    process.exit(1);
  }
  return createClusterClient(connection);
}

export interface BareServer {
  url: string;
  server: Server;
  /** resolves once no request is being handled (the load generator may leave some in flight) */
  idle(): Promise<void>;
}

/** Serves the bare baseline handler on a random local port. */
export async function serveBare(app: Koa): Promise<BareServer> {
  const handle = app.callback();
  let inFlight = 0;
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    inFlight++;
    void handle(req, res).finally(() => {
      if (--inFlight === 0) for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    idle: () => (inFlight === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
  };
}

/** In a forked bench server: close both servers and exit when the parent says stop. */
export function stopOnRequest(
  api: RunningServer,
  bare: BareServer,
  extra: (message: { type: string }) => void = () => {},
) {
  process.on('message', (message: { type: string }) => {
    extra(message);
    if (message.type === 'stop') {
      // Requests still in flight on the bare server use the API's database: finish them first.
      bare.server.close();
      void bare
        .idle()
        .then(() => api.close())
        .then(() => process.exit(0));
    }
  });
}

/** The nearest-rank percentile (p in percent) of some measurements, in any order; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** CPU time (ms) every core of the machine has spent busy so far: load generator, server, database. */
export function machineBusyMs(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return ((user! + nice! + system! + irq! + softirq! + steal!) * 1000) / 100; // USER_HZ = 100
}

/**
 * CPU time (ms) spent so far by the running processes named `command` (as /proc shows it: `postgres`,
 * `java`), every thread included. A process that ended in between takes its time with it: the
 * servers measured (PostgreSQL's pooled backends, the cluster) live through a run.
 */
export function processesBusyMs(command: string): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended while being read
    }
    // "pid (comm) state ppid …": the command may hold spaces, so fields are counted after its ')'
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    if (stat.slice(open + 1, close) !== command) continue;
    const fields = stat.slice(close + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  }
  return (ticks * 1000) / 100; // USER_HZ = 100
}

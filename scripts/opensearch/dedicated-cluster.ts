import { spawn } from 'node:child_process';
import { listening } from './cluster-http.js';
import { nodeLayouts } from './layout.js';
import { readPid } from './node-process.js';

/**
 * An OpenSearch cluster of a test's (or a benchmark's) own, for what cannot be done to the shared one: stopping it,
 * or a second node. Started and stopped by the project's tool (`npm run opensearch:start -- --port
 * N [--nodes 2]`, from the distribution cached in .cache/opensearch), so a test drives the same
 * commands an operator would.
 */
export interface DedicatedCluster {
  port: number;
  url: string;
  nodes: number;
  /** `opensearch:stop`: SIGTERM to every node, waiting until they are gone */
  stop(): Promise<void>;
  /** `opensearch:start` again on the same port: the same data, as after a restart */
  start(): Promise<void>;
  /**
   * SIGSTOP to every node: the processes are there and their sockets accept, but nothing answers
   * (as a long GC pause, a full disk or a network partition look to a client); `thaw` continues them
   */
  freeze(): void;
  thaw(): void;
  /** `signal` to one node (0 is the first, on `port`): SIGKILL for a node that dies at once */
  kill(node: number, signal: NodeJS.Signals): void;
}

/** Sends `signal` to every node of the cluster on `port` (their pidfiles). */
function signalNodes(port: number, nodes: number, signal: NodeJS.Signals): void {
  for (const node of nodeLayouts(port, nodes)) {
    const pid = readPid(node.pidFile);
    if (pid === undefined) throw new Error(`no pidfile for ${node.name}`);
    process.kill(pid, signal);
  }
}

async function runTool(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/opensearch.ts', ...args], {
      stdio: 'pipe',
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`opensearch ${args.join(' ')} failed (${code}):\n${output}`)),
    );
  });
}

/** Whether the HTTP and transport ports of a cluster on `port` with `nodes` nodes are all free. */
async function portsFree(port: number, nodes: number): Promise<boolean> {
  for (let i = 0; i < nodes; i++) {
    if ((await listening(port + i)) || (await listening(port + i + 100))) return false;
  }
  return true;
}

/**
 * Starts a fresh cluster (its data from an earlier run wiped) on `preferredPort`, or on the next
 * free one above it: a port someone else's cluster uses is never taken over, since the test will
 * stop what it started.
 */
export async function startDedicatedCluster(preferredPort: number, nodes = 1): Promise<DedicatedCluster> {
  let port = preferredPort;
  while (!(await portsFree(port, nodes))) {
    port += 2;
    if (port > preferredPort + 20) throw new Error(`no free ports for a test cluster from ${preferredPort}`);
  }
  const common = ['--port', String(port)];
  await runTool(['start', ...common, '--nodes', String(nodes), '--clean']);
  // A process that ends without stopping its cluster (killed by a signal it handles, a broken pipe,
  // an uncaught error) must not leave it running, or frozen: continued and told to stop.
  const leftBehind = () => {
    for (const signal of ['SIGCONT', 'SIGTERM'] as const) {
      try {
        signalNodes(port, nodes, signal);
      } catch {
        // already gone
      }
    }
  };
  process.once('exit', leftBehind);
  return {
    port,
    nodes,
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      process.off('exit', leftBehind);
      await runTool(['stop', ...common]);
    },
    start: async () => {
      await runTool(['start', ...common, '--nodes', String(nodes)]);
    },
    freeze: () => signalNodes(port, nodes, 'SIGSTOP'),
    thaw: () => signalNodes(port, nodes, 'SIGCONT'),
    kill: (node, signal) => {
      const layout = nodeLayouts(port, nodes)[node];
      const pid = layout && readPid(layout.pidFile);
      if (pid === undefined) throw new Error(`no pidfile for node ${node} of the cluster on ${port}`);
      process.kill(pid, signal);
    },
  };
}

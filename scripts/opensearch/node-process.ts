/**
 * The node processes: launching one detached, finding the ones running from their pidfiles,
 * stopping them. The pidfile is written by OpenSearch itself (-p), once it has started.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type NodeLayout } from './layout.js';
import { asServiceUser } from './service-user.js';
import { UserError } from './user-error.js';

const STOP_GRACE_MS = 30_000;
const POLL_MS = 200;
/** After SIGKILL: the kernel may take a moment to reap a large JVM. */
const KILL_WAIT_MS = 5_000;

/**
 * G1's region size. Below 2 GB of heap the JVM picks 1 MB regions, and an array of half a region
 * or more is then "humongous": allocated apart, in whole old-generation regions. Lucene allocates a
 * bitset of one bit per document of a segment for a query it caches or a sorted page it prunes
 * (625 KB for a segment of 5 M items): at 5 M items under load those filled the heap between
 * collections, and the parent circuit breaker, which counts the heap in use, refused searches
 * (429, a 503 to the caller). 2 MB regions take them as ordinary young objects up to 8 M
 * documents a segment. docs/opensearch.md says the same for a production cluster.
 */
const G1_REGION_SIZE = '2m';

/**
 * Starts the node in its own session (detached), so it outlives this script and no hang-up from
 * the terminal reaches it. In the foreground rather than with -d: the launcher then execs the JVM,
 * so the child we hold is the node and we notice at once if it dies while we wait for it. -q keeps
 * the log out of the console file, which is left with what comes before logging starts (JVM or
 * launcher errors).
 */
export function launchNode(home: string, javaHome: string, node: NodeLayout, heap: string): ChildProcess {
  const consoleFd = openSync(node.consoleLog, 'w');
  try {
    const [command, args] = asServiceUser(join(home, 'bin', 'opensearch'), ['-q', '-p', node.pidFile]);
    const child = spawn(command, args, {
      cwd: node.dir,
      detached: true,
      stdio: ['ignore', consoleFd, consoleFd],
      env: {
        ...process.env,
        OPENSEARCH_PATH_CONF: node.configDir,
        OPENSEARCH_JAVA_HOME: javaHome,
        OPENSEARCH_JAVA_OPTS: `-Xms${heap} -Xmx${heap} -XX:G1HeapRegionSize=${G1_REGION_SIZE}`,
        OPENSEARCH_TMPDIR: node.tmpDir,
      },
    });
    child.unref();
    return child;
  } finally {
    closeSync(consoleFd);
  }
}

export interface RunningNode {
  node: NodeLayout;
  pid: number;
}

/** The nodes among `nodes` whose pidfile names a live OpenSearch process. */
export function runningNodes(nodes: NodeLayout[]): RunningNode[] {
  return nodes.flatMap((node) => {
    const pid = readPid(node.pidFile);
    return pid !== undefined && isOpenSearchProcess(pid) ? [{ node, pid }] : [];
  });
}

export function readPid(pidFile: string): number | undefined {
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Alive, and still OpenSearch: after a reboot the pid in a stale pidfile may belong to anything. */
export function isOpenSearchProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else (a node started by root, seen by a user).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (!existsSync('/proc/self')) return true; // macOS: no cheap way to look at its command line.
  try {
    // Empty for a zombie, which counts as gone.
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('org.opensearch.bootstrap.OpenSearch');
  } catch {
    return false;
  }
}

/** SIGTERM, up to 30 s for a clean shutdown, then SIGKILL. Returns how many had to be killed. */
export async function stopNodes(running: RunningNode[]): Promise<number> {
  for (const { pid } of running) signal(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_GRACE_MS;
  let alive = running;
  while (alive.length && Date.now() < deadline) {
    await sleep(POLL_MS);
    alive = alive.filter(({ pid }) => isOpenSearchProcess(pid));
  }
  for (const { pid } of alive) signal(pid, 'SIGKILL');
  const killDeadline = Date.now() + KILL_WAIT_MS;
  while (alive.some(({ pid }) => isOpenSearchProcess(pid)) && Date.now() < killDeadline) await sleep(POLL_MS);
  for (const { node } of running) rmSync(node.pidFile, { force: true });
  return alive.length;
}

/**
 * Stops nodes this run launched and that never became healthy, by process group (the launcher's
 * helper JVMs included): they may not have written a pidfile yet.
 */
export async function stopLaunched(launched: { node: NodeLayout; child: ChildProcess }[]): Promise<void> {
  const live = launched.filter(
    ({ child }) => child.pid !== undefined && child.exitCode === null && child.signalCode === null,
  );
  const exits = Promise.all(live.map(({ child }) => new Promise((resolve) => child.once('exit', resolve))));
  for (const { child } of live) signal(-child.pid!, 'SIGTERM');
  const inTime = await Promise.race([exits.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
  if (!inTime) {
    for (const { child } of live) signal(-child.pid!, 'SIGKILL');
    await Promise.race([exits, sleep(KILL_WAIT_MS)]); // the timer also keeps the event loop alive
  }
  for (const { node } of launched) rmSync(node.pidFile, { force: true });
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPERM') {
      throw new UserError(`Sem permissão para parar o processo ${pid}: foi iniciado por outro utilizador.`);
    }
    if (code !== 'ESRCH') throw error;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

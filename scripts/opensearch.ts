/**
 * npm run opensearch:start [-- --port 9200 --nodes 1 --heap 512m --timeout 120 --clean]
 * npm run opensearch:stop [-- --port 9200]
 *
 * A local OpenSearch for development and CI, without Docker: the pinned version is fetched once
 * with Maven into .cache/opensearch (git-ignored) and started from there, detached, with its data
 * and logs kept per port in the same cache. `start` returns once the cluster is healthy and
 * prints its URL; a cluster already running on that port is reused. As root (CI, containers) the
 * node runs as the system user `opensearch`, because OpenSearch refuses to run as root.
 */
import { rm } from 'node:fs/promises';
import { relative } from 'node:path';
import { Command } from 'commander';
import { listening, probe, waitForHealth } from './opensearch/cluster-http.js';
import { ensureDistribution } from './opensearch/distribution.js';
import { findJavaHome } from './opensearch/java.js';
import {
  CLUSTER_NAME,
  MAX_NODES,
  type NodeLayout,
  OPENSEARCH_VERSION,
  clusterDir,
  clusterUrl,
  nodeLayouts,
} from './opensearch/layout.js';
import { writeNodeConfig } from './opensearch/node-config.js';
import { logSize, logTails } from './opensearch/node-logs.js';
import { launchNode, runningNodes, stopLaunched, stopNodes } from './opensearch/node-process.js';
import { parseHeap, parseNodes, parsePort, parseTimeoutSeconds } from './opensearch/options.js';
import { isRoot, prepareServiceUser } from './opensearch/service-user.js';
import { UserError } from './opensearch/user-error.js';

interface StartOptions {
  port: string;
  nodes: string;
  heap: string;
  timeout: string;
  clean?: boolean;
}

async function start(options: StartOptions): Promise<void> {
  const port = parsePort(options.port);
  const nodes = parseNodes(options.nodes);
  const heap = parseHeap(options.heap);
  const timeoutMs = parseTimeoutSeconds(options.timeout) * 1000;
  const cluster = nodeLayouts(port, nodes);

  const running = runningNodes(nodeLayouts(port, MAX_NODES));
  if (running.length) {
    if (running.length !== nodes) {
      throw new UserError(
        `O cluster da porta ${port} já está a correr com ${running.length} nó(s), não ${nodes}: pare-o primeiro (npm run opensearch:stop -- --port ${port}).`,
      );
    }
    // Ours, perhaps still starting (an earlier start that was interrupted): wait, do not relaunch.
    const nodesStarting = cluster.map((node) => ({ node }));
    await awaitCluster(nodesStarting, timeoutMs, () => runningNodes(cluster).length === nodes);
    return;
  }
  // The same cluster started from another checkout of the project (another working copy, a CI
  // clone on a machine where one already runs): usable as it is, and left to whoever started it.
  const answer = await probe(port);
  if (
    answer.kind === 'opensearch' &&
    answer.clusterName === CLUSTER_NAME &&
    answer.version === OPENSEARCH_VERSION
  ) {
    await awaitCluster([{ node: cluster[0]! }], timeoutMs, () => true);
    process.stdout.write(
      `(iniciado fora desta cópia do projeto: npm run opensearch:stop daqui não o pára)\n`,
    );
    return;
  }
  for (const node of cluster) await assertPortsFree(node);

  const javaHome = await findJavaHome();
  const home = await ensureDistribution();
  if (options.clean) {
    for (const node of nodeLayouts(port, MAX_NODES)) await rm(node.dataDir, { recursive: true, force: true });
  }
  for (const node of cluster) {
    await rm(node.pidFile, { force: true }); // stale: its process is gone (checked above)
    await writeNodeConfig(home, node, cluster);
  }
  if (isRoot()) await prepareServiceUser([home, clusterDir(port)]);

  const nodesLabel = nodes === 1 ? '1 nó' : `${nodes} nós`;
  process.stdout.write(
    `a iniciar OpenSearch ${OPENSEARCH_VERSION} (${nodesLabel}, heap ${heap}) na porta ${port}…\n`,
  );
  const launched = cluster.map((node) => {
    const mainLogFrom = logSize(node);
    return { node, mainLogFrom, child: launchNode(home, javaHome, node, heap) };
  });
  const exited = () => launched.some(({ child }) => child.exitCode !== null || child.signalCode !== null);
  try {
    await awaitCluster(launched, timeoutMs, () => !exited());
  } catch (error) {
    // Leave nothing half-started behind: the next start begins from scratch.
    await stopLaunched(launched);
    throw error;
  }
}

/** Waits for health with progress dots, then prints the one final line (or fails with the logs). */
async function awaitCluster(
  cluster: { node: NodeLayout; mainLogFrom?: number }[],
  timeoutMs: number,
  stillStarting: () => boolean,
): Promise<void> {
  const first = cluster[0]!.node;
  // Said only once it takes a while, so a cluster that is already up gets just the final line.
  let waiting = false;
  const outcome = await waitForHealth({
    port: first.httpPort,
    nodes: cluster.length,
    timeoutMs,
    stillStarting,
    onTick: () => {
      process.stdout.write(
        waiting ? '.' : `a aguardar que o cluster fique pronto (até ${timeoutMs / 1000} s).`,
      );
      waiting = true;
    },
  });
  if (waiting) process.stdout.write('\n');
  if (outcome !== 'healthy') {
    const message =
      outcome === 'died'
        ? `Um nó do OpenSearch (porta ${first.httpPort}) terminou durante o arranque.`
        : `O OpenSearch (porta ${first.httpPort}) não ficou pronto em ${timeoutMs / 1000} s.`;
    throw new UserError(message, await logTails(cluster));
  }
  const answer = await probe(first.httpPort);
  const version = answer.kind === 'opensearch' ? answer.version : OPENSEARCH_VERSION;
  process.stdout.write(`OpenSearch ${version} pronto em ${clusterUrl(first.httpPort)}\n`);
}

/** A port that answers while no pidfile of ours is alive belongs to someone else. */
async function assertPortsFree(node: NodeLayout): Promise<void> {
  const answer = await probe(node.httpPort);
  const secondNodeBelow = runningNodes(nodeLayouts(node.httpPort - 1, MAX_NODES)).find(
    (r) => r.node.index === 2,
  );
  if (secondNodeBelow) {
    throw new UserError(
      `A porta ${node.httpPort} é do 2.º nó do cluster da porta ${node.httpPort - 1}: use outra --port.`,
    );
  }
  if (answer.kind === 'opensearch' && answer.clusterName === CLUSTER_NAME) {
    throw new UserError(
      `Na porta ${node.httpPort} responde um OpenSearch ${CLUSTER_NAME} sem pidfile válido em ${relative(process.cwd(), node.dir)}: pare-o à mão (kill) ou use --port.`,
    );
  }
  if (answer.kind === 'opensearch') {
    throw new UserError(
      `Na porta ${node.httpPort} já responde um OpenSearch (cluster ${answer.clusterName}, ${answer.version}) que não foi iniciado por este script: pare-o ou use --port.`,
    );
  }
  if (answer.kind === 'other') {
    throw new UserError(
      `A porta ${node.httpPort} já está ocupada por outro programa: liberte-a ou use --port.`,
    );
  }
  if (await listening(node.transportPort)) {
    throw new UserError(
      `A porta ${node.transportPort} (transporte do nó ${node.index}) já está ocupada por outro programa: use outra --port.`,
    );
  }
}

async function stop(options: { port: string }): Promise<void> {
  const port = parsePort(options.port);
  const nodes = nodeLayouts(port, MAX_NODES);
  const running = runningNodes(nodes);
  if (!running.length) {
    for (const node of nodes) await rm(node.pidFile, { force: true });
    process.stdout.write(`Nenhum OpenSearch deste script a correr na porta ${port}: nada a parar.\n`);
    return;
  }
  const killed = await stopNodes(running);
  const forced = killed ? `, ${killed} à força (SIGKILL)` : '';
  const nodesLabel = running.length === 1 ? '1 nó' : `${running.length} nós`;
  process.stdout.write(`OpenSearch parado na porta ${port} (${nodesLabel}${forced}).\n`);
}

const defaultPort = process.env.OPENSEARCH_PORT ?? '9200';
const program = new Command('opensearch')
  .description('OpenSearch local para desenvolvimento e CI (cache em .cache/opensearch).')
  .helpOption('-h, --help', 'mostra esta ajuda')
  .helpCommand(false);
program
  .command('start')
  .description('Inicia o cluster (descarrega o OpenSearch na primeira vez) e espera que fique pronto.')
  .option('--port <n>', 'porta HTTP do primeiro nó (ou OPENSEARCH_PORT)', defaultPort)
  .option('--nodes <1|2>', 'número de nós; o segundo usa a porta seguinte', '1')
  .option('--heap <tamanho>', 'heap da JVM por nó, de 512m a 1g', '512m')
  .option('--timeout <s>', 'segundos à espera de que o cluster fique pronto', '120')
  .option('--clean', 'apaga os dados do cluster antes de iniciar')
  .action((options: StartOptions) => start(options));
program
  .command('stop')
  .description('Para o cluster iniciado nessa porta (SIGTERM; SIGKILL após 30 s).')
  .option('--port <n>', 'porta HTTP do primeiro nó (ou OPENSEARCH_PORT)', defaultPort)
  .action((options: { port: string }) => stop(options));

// Explicit exit: fetch keeps idle connections open for a few seconds after the last request.
process.exit(
  await program.parseAsync().then(
    () => 0,
    (error: unknown) => {
      const details = error instanceof UserError ? error.details : [];
      process.stderr.write([(error as Error).message, ...details].join('\n') + '\n');
      return 1;
    },
  ),
);

import type { Client } from '@opensearch-project/opensearch';
import autocannon from 'autocannon';
import { createClusterClient } from '../../indexer/cluster.js';
import { clusterConnection } from '../../src/config.js';
import { forkCompiledServer } from '../bench-server-process.js';
import { machineBusyMs, processesBusyMs } from '../bench-support.js';
import type { QuerySamples } from './samples.js';

export type EngineName = 'postgres' | 'opensearch';

export interface ScenarioRun {
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  /** the answers that were not 2xx, by status ("503": 5), when there were any */
  statuses?: Record<string, number>;
  /** CPU ms per request: of the server process, and of the whole machine (all processes) */
  serverCpu: number;
  machineCpu: number;
  generatorCpu: number;
  /** CPU ms per request of PostgreSQL's processes, and of the cluster's (0 on the Postgres engine) */
  databaseCpu: number;
  clusterCpu: number;
}

export interface ScenarioResult {
  name: string;
  /** p99 target of the scenario (ms) */
  target: number;
  api: ScenarioRun;
  bare: ScenarioRun;
}

export interface EngineRun {
  engine: EngineName;
  scenarios: ScenarioResult[];
  /** the server process's peak resident memory (bytes) */
  peakRss: number;
  /** OpenSearch's peak JVM heap in use during the run (bytes), and its maximum; null on Postgres */
  heap: { peakUsed: number; max: number } | null;
}

/** What `bench:search --out` keeps of a run: the stock's size and each engine's figures. */
export interface MeasuredSize {
  items: number;
  /** ISO-8601 */
  date: string;
  /** per scenario and target */
  durationSeconds: number;
  connections: number;
  /** accounts the API's requests came from (absent in runs before the option: 1) */
  accounts?: number;
  runs: EngineRun[];
}

export interface MeasureOptions extends TargetOptions {
  duration: number;
  only?: string[];
}

interface Ready {
  apiUrl: string;
  bareUrl: string;
  /** one per account */
  apiKeys: string[];
}

const WARM_UP_SECONDS = 5;

/** A step of a walk through a search's pages: the page to ask next, with the token that leads to it. */
type Step = { body: Record<string, unknown>; token: string; page: number };
/**
 * What a connection keeps (autocannon's context): the API key it sends, and what a request carries
 * to its response.
 */
type Walk = { step?: Step; apiKey?: string };

export interface Scenario {
  path: string;
  body: (walk: Walk) => Record<string, unknown>;
  /** what a response tells the next requests */
  onResponse?: (status: number, body: string, walk: Walk) => void;
  target: number;
  /** pages asked with a search token: sent with the first account's key, whose tokens they carry */
  withTokens?: true;
}

/** Pages read on through one search before a walk starts again at page 2 of another. */
const PAGES_PER_WALK = 50;

/** A search's first page, charged once before the measures: its token leads on to page 2. */
export interface FirstPage {
  body: Record<string, unknown>;
  search_token: string;
  total_pages: number;
}

/** The scenarios, on one engine's server: the same sampled values on every engine. */
function scenarios(samples: QuerySamples, first: FirstPage, walks: FirstPage[]): Record<string, Scenario> {
  const { references, vehicles, words } = samples;
  const nextSteps: Step[] = [];
  let n = 0;
  const pick = <T>(list: T[]): T => list[n++ % list.length]!;
  return {
    reference: { path: '/data/search', body: () => ({ reference: pick(references) }), target: 30 },
    // Same lookups that find nothing: no charge, so this isolates the cost of charging.
    'sem resultados': {
      path: '/data/search',
      body: () => ({ reference: `${pick(references)}ZZ` }),
      target: 30,
    },
    'vehicle+price': {
      path: '/data/search',
      body: () => {
        const v = pick(vehicles);
        return {
          vehicle_make: v.make,
          vehicle_model: v.model,
          price_min: Math.round(Number(v.p) * 50) / 100,
          price_max: Math.round(Number(v.p) * 200) / 100,
        };
      },
      target: 60,
    },
    text: { path: '/data/search', body: () => ({ text: pick(words) }), target: 60 },
    'token paging': {
      path: '/data/search',
      body: () => ({
        vehicle_make: vehicles[0]!.make,
        page: 2 + (n++ % Math.max(1, Math.min(first.total_pages - 1, 400))),
        search_token: first.search_token,
      }),
      target: 60,
      withTokens: true,
    },
    // The first page of the searches the next scenario pages through (their statistics are reused
    // within the cache's seconds, as for an integrator's popular searches).
    'first page (make)': { path: '/data/search', body: () => ({ ...pick(walks).body }), target: 60 },
    // Page after page, each asked with the token the page before it gave (the common case):
    // every request is a page after the first. As many walks as connections go on at once.
    'sequential paging': {
      path: '/data/search',
      body: (walk) => {
        const start = pick(walks);
        walk.step = nextSteps.shift() ?? { body: start.body, token: start.search_token, page: 2 };
        return { ...walk.step.body, page: walk.step.page, search_token: walk.step.token };
      },
      onResponse: (status, body, walk) => {
        // a refusal ends the walk (the bare handler answers a failure as plain text, not JSON)
        if (status !== 200) return;
        const answer = JSON.parse(body) as { search_token?: string; results?: unknown[]; items?: unknown[] };
        const more = (answer.results ?? answer.items ?? []).length > 0;
        const step = walk.step!;
        if (more && answer.search_token && step.page < PAGES_PER_WALK) {
          nextSteps.push({ body: step.body, token: answer.search_token, page: step.page + 1 });
        }
      },
      target: 60,
      withTokens: true,
    },
    stats: { path: '/data/search/stats', body: () => ({ reference: pick(references) }), target: 120 },
    // What an analyst asks: the statistics of a whole make, or of a word, over a broad result set.
    'stats (make)': {
      path: '/data/search/stats',
      body: () => ({ vehicle_make: pick(walks).body.vehicle_make }),
      target: 150,
    },
    'stats (text)': { path: '/data/search/stats', body: () => ({ text: pick(words) }), target: 150 },
  };
}

/** OpenSearch's JVM heap in use and its maximum, summed over the nodes. */
async function clusterHeap(client: Client): Promise<{ used: number; max: number }> {
  const stats = (await client.nodes.stats({ metric: ['jvm'] })).body as unknown as {
    nodes: Record<string, { jvm: { mem: { heap_used_in_bytes: number; heap_max_in_bytes: number } } }>;
  };
  const nodes = Object.values(stats.nodes);
  return {
    used: nodes.reduce((sum, n) => sum + n.jvm.mem.heap_used_in_bytes, 0),
    max: nodes.reduce((sum, n) => sum + n.jvm.mem.heap_max_in_bytes, 0),
  };
}

/** Where a target's server runs: its engine, its index, and the database of its stock. */
export interface TargetOptions {
  connections: number;
  accounts: number;
  opensearchIndex: string;
  /** the stock's database (default: DATABASE_URL) */
  databaseUrl?: string;
}

/**
 * A compiled server of the service on one engine and one stock, ready to be measured: its API and
 * bare handler's addresses, the scenarios its first pages lead to, and a run of a scenario against
 * either, with the CPU each request cost the machine and each process.
 */
export interface BenchTarget {
  engine: EngineName;
  apiUrl: string;
  bareUrl: string;
  scenarios: Record<string, Scenario>;
  run(url: string, scenario: Scenario, withKey: boolean, duration: number): Promise<ScenarioRun>;
  /** stops the server; the server process's peak resident memory and the cluster's heap */
  stop(): Promise<Pick<EngineRun, 'peakRss' | 'heap'>>;
}

/** Starts the compiled server on `engine` and charges the first pages its paging scenarios read on from. */
export async function startTarget(
  engine: EngineName,
  samples: QuerySamples,
  options: TargetOptions,
): Promise<BenchTarget> {
  const server = forkCompiledServer(
    'bench-search-server',
    process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [],
    {
      SEARCH_ENGINE: engine,
      OPENSEARCH_INDEX: options.opensearchIndex,
      BENCH_ACCOUNTS: String(options.accounts),
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    },
  );
  const ready = await new Promise<Ready>((resolve, reject) => {
    server.once('message', (m) => resolve(m as Ready));
    server.once('exit', (code) => reject(new Error(`o servidor de benchmark terminou (código ${code})`)));
  });
  const usage = () =>
    new Promise<{ rss: number; cpuMs: number }>((resolve) => {
      server.once('message', (m) => resolve(m as { rss: number; cpuMs: number }));
      server.send({ type: 'usage' });
    });
  const cluster = engine === 'opensearch' ? createClusterClient(clusterConnection(process.env)!) : null;
  const heap = cluster ? { peakUsed: 0, max: 0 } : null;
  const heapSampler = cluster
    ? setInterval(() => {
        void clusterHeap(cluster).then(
          (h) => {
            heap!.peakUsed = Math.max(heap!.peakUsed, h.used);
            heap!.max = h.max;
          },
          () => undefined,
        );
      }, 1_000)
    : null;
  let peakRss = (await usage()).rss;

  // each connection sends one account's key, the accounts taken in turn
  let connectionsKeyed = 0;
  const keyOf = (walk: Walk) => (walk.apiKey ??= ready.apiKeys[connectionsKeyed++ % ready.apiKeys.length]!);

  async function run(
    url: string,
    scenario: Scenario,
    withKey: boolean,
    duration: number,
  ): Promise<ScenarioRun> {
    const servers = () => ({ database: processesBusyMs('postgres'), cluster: processesBusyMs('java') });
    const before = {
      server: await usage(),
      machineMs: machineBusyMs(),
      generator: process.cpuUsage(),
      ...servers(),
    };
    const result = await autocannon({
      url,
      connections: options.connections,
      duration,
      requests: [
        {
          method: 'POST',
          path: scenario.path,
          headers: { 'content-type': 'application/json' },
          setupRequest: (req, context) => ({
            ...req,
            headers: {
              ...req.headers,
              ...(withKey
                ? { 'x-api-key': scenario.withTokens ? ready.apiKeys[0]! : keyOf(context as Walk) }
                : {}),
            },
            body: JSON.stringify(scenario.body(context as Walk)),
          }),
          ...(scenario.onResponse
            ? {
                onResponse: (status: number, body: string, context: unknown) =>
                  scenario.onResponse!(status, body, context as Walk),
              }
            : {}),
        },
      ],
    });
    const generator = process.cpuUsage(before.generator);
    const after = { server: await usage(), machineMs: machineBusyMs(), ...servers() };
    peakRss = Math.max(peakRss, after.server.rss);
    const requests = Math.max(1, result.requests.total);
    return {
      p50: result.latency.p50,
      p99: result.latency.p99,
      rps: result.requests.average,
      errors: result.errors + result.non2xx,
      ...(result.non2xx > 0 ? { statuses: non2xxStatuses(result.statusCodeStats) } : {}),
      serverCpu: (after.server.cpuMs - before.server.cpuMs) / requests,
      machineCpu: (after.machineMs - before.machineMs) / requests,
      generatorCpu: (generator.user + generator.system) / 1000 / requests,
      databaseCpu: (after.database - before.database) / requests,
      clusterCpu: engine === 'opensearch' ? (after.cluster - before.cluster) / requests : 0,
    };
  }

  // First pages, charged once: a token for the paging scenarios, and the searches they page through.
  const firstPage = async (body: Record<string, unknown>): Promise<FirstPage> => {
    const answer = (await (
      await fetch(`${ready.apiUrl}/data/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': ready.apiKeys[0]! },
        body: JSON.stringify(body),
      })
    ).json()) as FirstPage;
    return { ...answer, body };
  };
  const makes = [...new Set(samples.vehicles.map((v) => v.make))].slice(0, 20);
  const walks = await Promise.all(makes.map((make) => firstPage({ vehicle_make: make })));
  const all = scenarios(samples, walks[0]!, walks);
  // A first page the engine refused (too slow for its breaker or its lane) leaves no token to page
  // on from: sequential paging would then measure first searches.
  const refusedFirstPages = walks.filter((w) => !w.search_token).length;
  if (refusedFirstPages > 0) {
    console.log(
      `sequential paging: não medido (${refusedFirstPages} das ${walks.length} primeiras páginas recusadas, sem token para continuar).`,
    );
    delete all['sequential paging'];
  }
  return {
    engine,
    apiUrl: ready.apiUrl,
    bareUrl: ready.bareUrl,
    scenarios: all,
    run,
    async stop() {
      if (heapSampler) clearInterval(heapSampler);
      await cluster?.close();
      const stopped = new Promise((resolve) => server.once('exit', resolve));
      server.send({ type: 'stop' });
      await stopped;
      return { peakRss, heap };
    },
  };
}

/**
 * Warm-up, not measured: JIT, connection pools and prepared statements, for both of a target's
 * handlers, with searches that find nothing, so that no scenario's query or cached statistics is
 * warmed by it.
 */
export async function warmUp(target: BenchTarget): Promise<void> {
  const noResults = target.scenarios['sem resultados']!;
  await target.run(target.apiUrl, noResults, true, WARM_UP_SECONDS);
  await target.run(target.bareUrl, noResults, false, WARM_UP_SECONDS);
}

/** Starts the compiled server on `engine`, runs every scenario against the API and the bare handler. */
export async function measureEngine(
  engine: EngineName,
  samples: QuerySamples,
  options: MeasureOptions,
): Promise<EngineRun> {
  console.log(`\n== Motor ${engine} ==`);
  const target = await startTarget(engine, samples, options);
  await warmUp(target);
  const results: ScenarioResult[] = [];
  for (const [name, scenario] of Object.entries(target.scenarios)) {
    if (options.only && !options.only.includes(name)) continue;
    const api = await target.run(target.apiUrl, scenario, true, options.duration);
    const bare = await target.run(target.bareUrl, scenario, false, options.duration);
    console.log(
      `${name}: API p50 ${api.p50} ms p99 ${api.p99} ms ${api.rps.toFixed(0)} req/s | bare ${bare.rps.toFixed(0)} req/s`,
    );
    results.push({ name, target: scenario.target, api, bare });
  }
  return { engine, scenarios: results, ...(await target.stop()) };
}

/** autocannon's counts by status, those that were not 2xx. */
function non2xxStatuses(stats: Record<string, { count?: number }> = {}): Record<string, number> {
  return Object.fromEntries(
    Object.entries(stats).flatMap(([status, s]) => (status.startsWith('2') ? [] : [[status, s.count ?? 0]])),
  );
}

/**
 * npm run bench:search [-- --duration 20 --connections 16 --only reference,stats]
 *
 * Load test of POST /data/search and /data/search/stats on the database at DATABASE_URL (load a
 * million items first: npm run data:generate -- --items 1000000). For each scenario it drives the
 * real API, then a bare Koa handler running the same engine query in the same server process, and
 * prints p50/p99 latency, req/s, the API/bare throughput ratio, the server's RSS and the CPU time
 * each request cost, of the server process and of the whole machine. The CPU figures are steadier
 * than req/s on a machine whose cores the load generator shares, so they show what a change saves.
 * A 5-second warm-up with searches that find nothing comes first and is not measured. The server
 * is compiled first (npm run build) and runs from dist/, as the Dockerfile runs it.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { Command } from 'commander';
import { forkCompiledServer } from './bench-server-process.js';

const program = new Command()
  .option('--duration <s>', 'seconds per scenario and target', '20')
  .option('--connections <n>', 'concurrent connections', '16')
  .option('--only <list>', 'comma-separated scenarios')
  .parse();
const opts = program.opts<{ duration: string; connections: string; only?: string }>();

if (!process.env.DATABASE_URL) {
  console.error(
    'DATABASE_URL não está definido: indique a base de dados com os dados gerados (npm run data:generate).',
  );
  process.exit(1);
}

interface Ready {
  apiUrl: string;
  bareUrl: string;
  apiKey: string;
  items: number;
  samples: { references: string[]; vehicles: { make: string; model: string; p: string }[]; words: string[] };
}

const server = forkCompiledServer(
  'bench-search-server',
  process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [],
);
const ready = await new Promise<Ready>((resolve, reject) => {
  server.once('message', (m) => resolve(m as Ready));
  server.once('exit', (code) => reject(new Error(`o servidor de benchmark terminou (código ${code})`)));
});
/** The server process's resident memory and CPU time used so far (ms). */
const usage = () =>
  new Promise<{ rss: number; cpuMs: number }>((resolve) => {
    server.once('message', (m) => resolve(m as { rss: number; cpuMs: number }));
    server.send({ type: 'usage' });
  });
/** CPU time (ms) every core of the machine has spent busy so far: load generator, server, database. */
function machineBusyMs(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return ((user! + nice! + system! + irq! + softirq! + steal!) * 1000) / 100; // USER_HZ = 100
}

const { references, vehicles, words } = ready.samples;
let n = 0;
const pick = <T>(list: T[]): T => list[n++ % list.length]!;

// A token for the paging scenario: one charged first page, then free pages with it.
const first = (await (
  await fetch(`${ready.apiUrl}/data/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': ready.apiKey },
    body: JSON.stringify({ vehicle_make: vehicles[0]!.make }),
  })
).json()) as { search_token: string; total_pages: number };

const scenarios: Record<string, { path: string; body: () => Record<string, unknown>; target: number }> = {
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
        price_min: Number(v.p) * 0.5,
        price_max: Number(v.p) * 2,
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
  },
  stats: { path: '/data/search/stats', body: () => ({ reference: pick(references) }), target: 120 },
};

async function run(
  url: string,
  path: string,
  body: () => Record<string, unknown>,
  withKey: boolean,
  duration = Number(opts.duration),
) {
  const before = { server: await usage(), machineMs: machineBusyMs(), generator: process.cpuUsage() };
  const result = await autocannon({
    url: url + path,
    connections: Number(opts.connections),
    duration,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(withKey ? { 'x-api-key': ready.apiKey } : {}) },
        setupRequest: (req) => ({ ...req, body: JSON.stringify(body()) }),
      },
    ],
  });
  const generator = process.cpuUsage(before.generator);
  const after = { server: await usage(), machineMs: machineBusyMs() };
  peakRss = Math.max(peakRss, after.server.rss);
  const requests = result.requests.total;
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.errors + result.non2xx,
    /** CPU ms per request: of the server process, and of the whole machine (all processes) */
    serverCpu: (after.server.cpuMs - before.server.cpuMs) / requests,
    machineCpu: (after.machineMs - before.machineMs) / requests,
    generatorCpu: (generator.user + generator.system) / 1000 / requests,
  };
}

const cpuSplit = (r: { machineCpu: number; serverCpu: number; generatorCpu: number }) =>
  `${r.machineCpu.toFixed(2)} = ${r.serverCpu.toFixed(2)} + ${r.generatorCpu.toFixed(2)} + ${(r.machineCpu - r.serverCpu - r.generatorCpu).toFixed(2)}`;

const only = opts.only?.split(',');
const WARM_UP_SECONDS = 5;
const rows: string[][] = [];
let peakRss = (await usage()).rss;
console.log(
  `Benchmark sobre ${ready.items.toLocaleString('pt-PT')} artigos; ${opts.connections} ligações, ${opts.duration} s por cenário e alvo.\n`,
);
// Warm-up, not measured: JIT, connection pools and prepared statements, for both targets, with
// searches that find nothing, so that no scenario's query or cached statistics is warmed by it
// (the first scenario otherwise measured the process's start).
const noResults = scenarios['sem resultados']!;
await run(ready.apiUrl, noResults.path, noResults.body, true, WARM_UP_SECONDS);
await run(ready.bareUrl, noResults.path, noResults.body, false, WARM_UP_SECONDS);
for (const [name, scenario] of Object.entries(scenarios)) {
  if (only && !only.includes(name)) continue;
  const apiRun = await run(ready.apiUrl, scenario.path, scenario.body, true);
  const bareRun = await run(ready.bareUrl, scenario.path, scenario.body, false);
  const ratio = apiRun.rps / bareRun.rps;
  rows.push([
    name,
    `${apiRun.p50} ms`,
    `${apiRun.p99} ms`,
    `≤ ${scenario.target} ms ${apiRun.p99 <= scenario.target ? 'ok' : 'FALHA'}`,
    apiRun.rps.toFixed(0),
    bareRun.rps.toFixed(0),
    `${ratio.toFixed(2)} ${ratio >= 0.75 ? 'ok' : 'FALHA'}`,
    `${apiRun.machineCpu.toFixed(2)} / ${bareRun.machineCpu.toFixed(2)}`,
    `${apiRun.serverCpu.toFixed(2)} / ${bareRun.serverCpu.toFixed(2)}`,
    String(apiRun.errors),
  ]);
  console.log(
    `${name}: API p50 ${apiRun.p50} ms p99 ${apiRun.p99} ms ${apiRun.rps.toFixed(0)} req/s | bare ${bareRun.rps.toFixed(0)} req/s\n` +
      `  CPU ms/pedido (máquina = servidor + gerador de carga + resto, isto é, base de dados e núcleo):\n` +
      `  API ${cpuSplit(apiRun)} | bare ${cpuSplit(bareRun)}`,
  );
}
const header = [
  'cenário',
  'p50',
  'p99',
  'alvo p99',
  'API req/s',
  'bare req/s',
  'rácio (≥ 0.75)',
  'CPU máquina ms/pedido API / bare',
  'CPU servidor ms/pedido API / bare',
  'erros',
];
console.log('\n| ' + header.join(' | ') + ' |\n|' + header.map(() => '---').join('|') + '|');
for (const r of rows) console.log('| ' + r.join(' | ') + ' |');
console.log(`\nRSS máximo do processo servidor: ${(peakRss / 1024 / 1024).toFixed(0)} MB (alvo ≤ 300 MB)`);
server.send({ type: 'stop' });

/**
 * npm run bench:catalog [-- --duration 10 --connections 16]
 *
 * Load test of the public catalog endpoints (autocannon) on DATABASE_URL, or on an embedded
 * database under .data/bench-catalog; the catalog is seeded first when empty (the seed time is
 * printed). For each endpoint: p50/p99 latency and req/s of the API, and of a bare Koa handler
 * running the same query in the same server process, with their ratio. Target: p99 ≤ 20 ms.
 */
import autocannon from 'autocannon';
import { Command } from 'commander';
import { LANGUAGES } from '../src/languages.js';
import { forkCompiledServer } from './bench-server-process.js';

const opts = new Command()
  .option('--duration <s>', 'seconds per endpoint and target', '10')
  .option('--connections <n>', 'concurrent connections', '16')
  .option('--only <text>', 'only the endpoints whose name contains this text')
  .parse()
  .opts<{ duration: string; connections: string; only?: string }>();

interface Ready {
  apiUrl: string;
  bareUrl: string;
  seedSeconds: number | null;
  database: string;
}

const server = forkCompiledServer('bench-catalog-server');
const ready = await new Promise<Ready>((resolve, reject) => {
  server.once('message', (m) => resolve(m as Ready));
  server.once('exit', (code) => reject(new Error(`o servidor de benchmark terminou (código ${code})`)));
});

/**
 * Repeated pages are answered from the routes' page cache (a minute); the "varied" scenarios
 * request a different model, variant list or name filter each time, so they mostly miss it and
 * measure the queries themselves.
 */
let n = 0;
const LETTERS = 'aeioulnrst';
const endpoints: { name: string; path: () => string }[] = [
  ...[
    '/data/catalog/parts',
    '/data/catalog/parts?q=travao',
    '/data/catalog/vehicle-makes',
    '/data/catalog/vehicle-models/57',
    '/data/catalog/vehicle-variants/1000',
    '/data/catalog/countries?lang=de',
    '/data/catalog/brands',
  ].map((path) => ({ name: path, path: () => path })),
  {
    name: '/data/catalog/vehicle-variants/:modelId (varied)',
    path: () => `/data/catalog/vehicle-variants/${1 + ((n++ * 7919) % 20_524)}`,
  },
  {
    // Type-ahead: two letters, any language, any page size — 60,000 combinations.
    name: '/data/catalog/parts?q=xx (varied)',
    path: () => {
      const k = n++;
      const pair = LETTERS[k % 10]! + LETTERS[Math.floor(k / 10) % 10]!;
      const lang = LANGUAGES[Math.floor(k / 100) % LANGUAGES.length];
      return `/data/catalog/parts?lang=${lang}&q=${pair}&per_page=${1 + (Math.floor(k / 600) % 100)}`;
    },
  },
];

async function run(base: string, path: () => string) {
  const result = await autocannon({
    url: base,
    connections: Number(opts.connections),
    duration: Number(opts.duration),
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: path() }) }],
  });
  if (result.non2xx || result.errors)
    throw new Error(`${path()}: ${result.non2xx + result.errors} respostas falhadas`);
  return { p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average };
}

console.log(
  `Catálogos (${ready.database}); ${ready.seedSeconds === null ? 'catálogo já semeado' : `semeado em ${ready.seedSeconds.toFixed(1)} s`}; ${opts.connections} ligações, ${opts.duration} s por endpoint e alvo.\n`,
);
const header = ['endpoint', 'p50', 'p99', 'alvo p99 ≤ 20 ms', 'API req/s', 'bare req/s', 'rácio'];
const rows: string[][] = [];
for (const { name, path } of endpoints.filter((e) => !opts.only || e.name.includes(opts.only))) {
  const api = await run(ready.apiUrl, path);
  const bare = await run(ready.bareUrl, path);
  rows.push([
    name,
    `${api.p50} ms`,
    `${api.p99} ms`,
    api.p99 <= 20 ? 'ok' : 'FALHA',
    api.rps.toFixed(0),
    bare.rps.toFixed(0),
    (api.rps / bare.rps).toFixed(2),
  ]);
  console.log(
    `${name}: p50 ${api.p50} ms p99 ${api.p99} ms ${api.rps.toFixed(0)} req/s | bare ${bare.rps.toFixed(0)} req/s`,
  );
}
console.log('\n| ' + header.join(' | ') + ' |\n|' + header.map(() => '---').join('|') + '|');
for (const r of rows) console.log('| ' + r.join(' | ') + ' |');
server.send({ type: 'stop' });

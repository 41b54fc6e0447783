import type { EngineRun, ScenarioRun } from './measure.js';

const MB = 1024 * 1024;

function table(header: string[], rows: string[][]): void {
  console.log('\n| ' + header.join(' | ') + ' |\n|' + header.map(() => '---').join('|') + '|');
  for (const r of rows) console.log('| ' + r.join(' | ') + ' |');
}

const verdict = (ok: boolean) => (ok ? 'ok' : 'FALHA');
type CpuFigure = 'machineCpu' | 'serverCpu' | 'databaseCpu' | 'clusterCpu';
const cpu = (api: ScenarioRun, bare: ScenarioRun, key: CpuFigure) =>
  `${api[key].toFixed(2)} / ${bare[key].toFixed(2)}`;

/** One engine's figures: latency against the p99 target, throughput against the bare handler. */
export function printEngineTable(run: EngineRun): void {
  console.log(`\nMotor ${run.engine}:`);
  table(
    [
      'cenário',
      'p50',
      'p99',
      'alvo p99',
      'API req/s',
      'bare req/s',
      'rácio API/bare (≥ 0.75)',
      'CPU máquina ms/pedido API / bare',
      'CPU servidor ms/pedido API / bare',
      'CPU PostgreSQL ms/pedido API / bare',
      ...(run.engine === 'opensearch' ? ['CPU OpenSearch ms/pedido API / bare'] : []),
      'erros',
    ],
    run.scenarios.map(({ name, target, api, bare }) => {
      const ratio = api.rps / bare.rps;
      return [
        name,
        `${api.p50} ms`,
        `${api.p99} ms`,
        `≤ ${target} ms ${verdict(api.p99 <= target)}`,
        api.rps.toFixed(0),
        bare.rps.toFixed(0),
        `${ratio.toFixed(2)} ${verdict(ratio >= 0.75)}`,
        cpu(api, bare, 'machineCpu'),
        cpu(api, bare, 'serverCpu'),
        cpu(api, bare, 'databaseCpu'),
        ...(run.engine === 'opensearch' ? [cpu(api, bare, 'clusterCpu')] : []),
        api.statuses
          ? `${api.errors} (${Object.entries(api.statuses)
              .map(([status, count]) => `${status}: ${count}`)
              .join(', ')})`
          : String(api.errors),
      ];
    }),
  );
  const sequential = run.scenarios.find((r) => r.name === 'sequential paging');
  const firstPage = run.scenarios.find((r) => r.name === 'first page (make)');
  if (sequential && firstPage) {
    // the API's machine CPU per request: a page read on from its token against a first page
    const ratio = sequential.api.machineCpu / firstPage.api.machineCpu;
    console.log(
      `\nPaginação sequencial ÷ primeira página, CPU da máquina por pedido: ${ratio.toFixed(2)} (alvo ≤ 1.2) ${verdict(ratio <= 1.2)}`,
    );
  }
  console.log(`\nRSS máximo do processo servidor: ${(run.peakRss / MB).toFixed(0)} MB (alvo ≤ 300 MB)`);
  if (run.heap) {
    console.log(
      `Heap do OpenSearch: máximo em uso ${(run.heap.peakUsed / MB).toFixed(0)} MB de ${(run.heap.max / MB).toFixed(0)} MB (alvo ≤ 1024 MB)`,
    );
  }
}

/**
 * Both engines side by side, with the targets set as same-run ratios: OpenSearch at least twice
 * the Postgres engine's throughput and at most half its p99 on the broad scenarios, at least 0.8
 * of its throughput on reference lookups.
 */
export function printComparison(postgres: EngineRun, opensearch: EngineRun): void {
  console.log('\nOpenSearch face ao motor Postgres (mesma execução):');
  const rows = postgres.scenarios.flatMap((pg) => {
    const os = opensearch.scenarios.find((s) => s.name === pg.name);
    if (!os) return [];
    const throughput = os.api.rps / pg.api.rps;
    const latency = os.api.p99 / Math.max(1, pg.api.p99);
    const broad = ['text', 'vehicle+price', 'stats', 'token paging'].includes(pg.name);
    const minThroughput = pg.name === 'reference' ? 0.8 : broad ? 2 : null;
    return [
      [
        pg.name,
        `${pg.api.p50} / ${pg.api.p99} ms`,
        pg.api.rps.toFixed(0),
        `${os.api.p50} / ${os.api.p99} ms`,
        os.api.rps.toFixed(0),
        minThroughput === null
          ? throughput.toFixed(2)
          : `${throughput.toFixed(2)} (≥ ${minThroughput}) ${verdict(throughput >= minThroughput)}`,
        broad ? `${latency.toFixed(2)} (≤ 0.5) ${verdict(latency <= 0.5)}` : latency.toFixed(2),
        `${(pg.api.rps / pg.bare.rps).toFixed(2)} / ${(os.api.rps / os.bare.rps).toFixed(2)}`,
      ],
    ];
  });
  table(
    [
      'cenário',
      'Postgres p50 / p99',
      'Postgres req/s',
      'OpenSearch p50 / p99',
      'OpenSearch req/s',
      'req/s OS ÷ PG',
      'p99 OS ÷ PG',
      'API/bare PG / OS (≥ 0.75)',
    ],
    rows,
  );
}

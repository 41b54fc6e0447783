/**
 * npm run bench:growth -- --large-database postgres://…/stock5m [--large-index bench_stock5m
 *                         --index bench_stock --engine opensearch|postgres|both --rounds 2
 *                         --duration 10 --connections 16 --accounts 1 --only text,stats
 *                         --svg docs/search-cost-curve.svg]
 *
 * How each engine's cost per request grows with the stock, measured in one run: the API on the
 * stock at DATABASE_URL (and its index, --index) and on a larger one (--large-database,
 * --large-index) run side by side, each scenario asked of one then the other, alternately, for
 * --rounds rounds (the order reversed every other round), with the same sampled queries (taken
 * from the smaller stock). This machine's speed moves by up to 40 % between runs minutes apart,
 * so two `npm run bench:search` runs, one per size, compare less firmly than pairs asked within
 * seconds of each other in the same run. Prints per engine and scenario p50/p99, req/s and the
 * machine's CPU per request at each size, the growth factor of each round and of the whole run
 * (target for OpenSearch: at most 1.5x on every scenario); with --svg, the curve of the means
 * drawn as `npm run bench:curve` draws it.
 */
import { Command, Option } from 'commander';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.js';
import {
  startTarget,
  warmUp,
  type BenchTarget,
  type EngineName,
  type ScenarioRun,
} from './bench-search/measure.js';
import { drawCurve, MAX_GROWTH, millions, type CurvePoint } from './bench-search/curve.js';
import { sampleQueries } from './bench-search/samples.js';

const opts = new Command()
  .requiredOption('--large-database <url>', 'base de dados do stock maior')
  .option('--index <alias>', 'alias do índice OpenSearch do stock de DATABASE_URL', 'bench_stock')
  .option('--large-index <alias>', 'alias do índice OpenSearch do stock maior', 'bench_stock_large')
  .addOption(
    new Option('--engine <engine>', 'motor a medir')
      .choices(['postgres', 'opensearch', 'both'])
      .default(process.env.OPENSEARCH_URL ? 'opensearch' : 'postgres'),
  )
  .option('--rounds <n>', 'rondas (cada uma mede os dois tamanhos)', '2')
  .option('--duration <s>', 'segundos por cenário, tamanho e ronda', '10')
  .option('--connections <n>', 'ligações simultâneas', '16')
  .option('--accounts <n>', 'contas (uma chave cada) de onde vêm os pedidos', '1')
  .option('--only <list>', 'cenários separados por vírgulas')
  .option('--svg <file>', 'desenha a curva (as médias das rondas) neste ficheiro')
  .parse()
  .opts<{
    largeDatabase: string;
    index: string;
    largeIndex: string;
    engine: EngineName | 'both';
    rounds: string;
    duration: string;
    connections: string;
    accounts: string;
    only?: string;
    svg?: string;
  }>();

const smallDatabase = process.env.DATABASE_URL;
if (!smallDatabase) {
  console.error('DATABASE_URL não está definido: indique a base de dados do stock menor.');
  process.exit(1);
}
const engines: EngineName[] = opts.engine === 'both' ? ['postgres', 'opensearch'] : [opts.engine];
if (engines.includes('opensearch') && !process.env.OPENSEARCH_URL) {
  console.error('OPENSEARCH_URL não está definido: inicie um cluster com npm run opensearch:start.');
  process.exit(1);
}

const small = await openDatabase({ url: smallDatabase, poolSize: 2 });
const samples = await sampleQueries(small.db);
await small.close();
const large = await openDatabase({ url: opts.largeDatabase, poolSize: 2 });
const largeItems = Number(
  (await sql<{ n: string }>`select count(*) as n from stock_items`.execute(large.db)).rows[0]!.n,
);
await large.close();
const sizes = [samples.items, largeItems];
const rounds = Number(opts.rounds);
const duration = Number(opts.duration);
const only = opts.only?.split(',');
console.log(
  `Crescimento de ${millions(sizes[0]!)} para ${millions(sizes[1]!)} artigos: ${rounds} ronda(s), ${duration} s por cenário e tamanho, ${opts.connections} ligações; as mesmas consultas (amostradas do stock menor).`,
);

/** One scenario's runs at each size, round by round. */
interface Measured {
  name: string;
  runs: [ScenarioRun[], ScenarioRun[]];
}

const ms = (v: number) => v.toFixed(2);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

function printGrowth(engine: EngineName, measured: Measured[]): void {
  const header = [
    'cenário',
    `${millions(sizes[0]!)}: p50 / p99, req/s`,
    `${millions(sizes[1]!)}: p50 / p99, req/s`,
    'CPU máquina ms/pedido por ronda (menor → maior)',
    'crescimento por ronda',
    `crescimento${engine === 'opensearch' ? ` (alvo ≤ ${MAX_GROWTH})` : ''}`,
    'erros',
  ];
  console.log(`\nMotor ${engine}:`);
  console.log('\n| ' + header.join(' | ') + ' |\n|' + header.map(() => '---').join('|') + '|');
  for (const { name, runs } of measured) {
    const [atSmall, atLarge] = runs;
    const latency = (r: ScenarioRun[]) =>
      `${Math.round(mean(r.map((x) => x.p50)))} / ${Math.round(mean(r.map((x) => x.p99)))} ms, ${mean(r.map((x) => x.rps)).toFixed(0)}`;
    const perRound = atSmall.map((s, i) => atLarge[i]!.machineCpu / s.machineCpu);
    // the whole run's factor: the CPU per request at each size over all its rounds
    const growth = mean(atLarge.map((r) => r.machineCpu)) / mean(atSmall.map((r) => r.machineCpu));
    const verdict = engine === 'opensearch' ? (growth <= MAX_GROWTH ? ' ok' : ' FALHA') : '';
    console.log(
      '| ' +
        [
          name,
          latency(atSmall),
          latency(atLarge),
          atSmall.map((s, i) => `${ms(s.machineCpu)} → ${ms(atLarge[i]!.machineCpu)}`).join('; '),
          perRound.map((g) => g.toFixed(2)).join(', '),
          `${growth.toFixed(2)}${verdict}`,
          `${atSmall.reduce((n, r) => n + r.errors, 0)} / ${atLarge.reduce((n, r) => n + r.errors, 0)}`,
        ].join(' | ') +
        ' |',
    );
  }
}

/** Each size's figures, the means of its rounds, as the curve draws them. */
function curvePoints(engine: EngineName, measured: Measured[]): CurvePoint[] {
  return measured.flatMap(({ name, runs }) =>
    runs.map((atSize, size) => ({
      engine,
      scenario: name,
      items: sizes[size]!,
      p50: mean(atSize.map((r) => r.p50)),
      p99: mean(atSize.map((r) => r.p99)),
      rps: mean(atSize.map((r) => r.rps)),
      cpu: mean(atSize.map((r) => r.machineCpu)),
      errors:
        atSize.reduce((n, r) => n + r.errors, 0) /
        Math.max(1, mean(atSize.map((r) => r.rps)) * duration * rounds),
    })),
  );
}

const points: CurvePoint[] = [];
for (const engine of engines) {
  console.log(`\n== Motor ${engine} ==`);
  const options = { connections: Number(opts.connections), accounts: Number(opts.accounts) };
  const targets: [BenchTarget, BenchTarget] = [
    await startTarget(engine, samples, {
      ...options,
      opensearchIndex: opts.index,
      databaseUrl: smallDatabase,
    }),
    await startTarget(engine, samples, {
      ...options,
      opensearchIndex: opts.largeIndex,
      databaseUrl: opts.largeDatabase,
    }),
  ];
  for (const target of targets) await warmUp(target);
  const measured: Measured[] = [];
  for (const name of Object.keys(targets[0].scenarios)) {
    if (only && !only.includes(name)) continue;
    // a scenario the server could not set up (no first page to page on from) is not compared
    if (!targets.every((t) => t.scenarios[name])) continue;
    const runs: Measured['runs'] = [[], []];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const size of order) {
        const target = targets[size]!;
        runs[size]!.push(await target.run(target.apiUrl, target.scenarios[name]!, true, duration));
      }
    }
    console.log(
      `${name}: CPU máquina ms/pedido ${runs[0].map((r) => ms(r.machineCpu)).join(', ')} → ${runs[1].map((r) => ms(r.machineCpu)).join(', ')}`,
    );
    measured.push({ name, runs });
  }
  await Promise.all(targets.map((t) => t.stop()));
  printGrowth(engine, measured);
  points.push(...curvePoints(engine, measured));
}
if (opts.svg) await drawCurve(points, opts.svg);

/**
 * npm run bench:curve -- run-1m.json run-5m.json [--svg docs/search-cost-curve.svg]
 *
 * How each engine's cost grows with the stock: reads what `npm run bench:search -- --out F` saved
 * at several stock sizes (the same scenarios, the same sampled queries), prints per engine and
 * scenario p50/p99, req/s and the machine's CPU per request at each size with the growth factor
 * from the smallest size to the largest (target for OpenSearch: at most 1.5x on every scenario),
 * and draws the CPU per request against the stock's size (Vega-Lite, rendered to SVG). A scenario
 * whose answers were more than 5 % errors (an engine shedding what it cannot answer in time) is
 * marked in the table and left out of the chart: its figures measure refusals, not the work.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { MeasuredSize } from './bench-search/measure.js';

const opts = new Command()
  .argument('<files...>', 'medições de npm run bench:search -- --out (uma por tamanho do stock)')
  .option('--svg <file>', 'onde escrever o gráfico', 'docs/search-cost-curve.svg')
  .parse();
const sizes = (opts.args as string[])
  .map((file) => JSON.parse(readFileSync(file, 'utf8')) as MeasuredSize)
  .sort((a, b) => a.items - b.items);
if (sizes.length < 2) {
  console.error('Indique pelo menos duas medições (tamanhos do stock diferentes).');
  process.exit(1);
}
const { svg } = opts.opts<{ svg: string }>();

/** The OpenSearch engine's CPU per request may grow at most this much from the smallest stock to the largest. */
const MAX_GROWTH = 1.5;
/** Past this share of errors, a measure is of refusals. */
const MAX_ERRORS = 0.05;

interface Point {
  engine: string;
  scenario: string;
  items: number;
  p50: number;
  p99: number;
  rps: number;
  cpu: number;
  /** the share of answers that were errors */
  errors: number;
}
const points: Point[] = sizes.flatMap((size) =>
  size.runs.flatMap((run) =>
    run.scenarios.map((s) => ({
      engine: run.engine,
      scenario: s.name,
      items: size.items,
      p50: s.api.p50,
      p99: s.api.p99,
      rps: s.api.rps,
      cpu: s.api.machineCpu,
      errors: s.api.errors / Math.max(1, s.api.rps * size.durationSeconds),
    })),
  ),
);
const refused = (p: Point | undefined) => p !== undefined && p.errors > MAX_ERRORS;

const millions = (items: number) =>
  `${(items / 1e6).toLocaleString('pt-PT', { maximumFractionDigits: 1 })} M`;
const [smallest, largest] = [sizes[0]!.items, sizes[sizes.length - 1]!.items];
const header = [
  'motor',
  'cenário',
  ...sizes.map((s) => `${millions(s.items)}: p50 / p99, req/s, CPU ms/pedido`),
  `CPU ${millions(smallest)} → ${millions(largest)}`,
];
console.log('\n| ' + header.join(' | ') + ' |\n|' + header.map(() => '---').join('|') + '|');
const keys = [...new Set(points.map((p) => `${p.engine}\u0000${p.scenario}`))];
for (const key of keys) {
  const [engine, scenario] = key.split('\u0000') as [string, string];
  const at = (items: number) =>
    points.find((p) => p.engine === engine && p.scenario === scenario && p.items === items);
  const [first, last] = [at(smallest), at(largest)];
  const growth = first && last && !refused(first) && !refused(last) ? last.cpu / first.cpu : null;
  const verdict =
    growth === null
      ? '–'
      : engine === 'opensearch'
        ? `${growth.toFixed(2)}× (≤ ${MAX_GROWTH}) ${growth <= MAX_GROWTH ? 'ok' : 'FALHA'}`
        : `${growth.toFixed(2)}×`;
  const cells = sizes.map((s) => {
    const p = at(s.items);
    if (!p) return '–';
    const figures = `${p.p50} / ${p.p99} ms, ${p.rps.toFixed(0)}, ${p.cpu.toFixed(2)}`;
    return refused(p) ? `${figures} (${(p.errors * 100).toFixed(0)} % erros: recusas)` : figures;
  });
  console.log(`| ${engine} | ${scenario} | ${cells.join(' | ')} | ${verdict} |`);
}

const spec: TopLevelSpec = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  title: {
    text: 'CPU da máquina por pedido, segundo o tamanho do stock',
    subtitle: 'sem as medições com mais de 5 % de erros (recusas do motor)',
  },
  width: 640,
  height: 360,
  data: { values: points.filter((p) => !refused(p)).map((p) => ({ ...p, millions: p.items / 1e6 })) },
  mark: { type: 'line', point: true },
  encoding: {
    x: { field: 'millions', type: 'quantitative', title: 'artigos em stock (milhões)' },
    y: { field: 'cpu', type: 'quantitative', scale: { type: 'log' }, title: 'CPU da máquina, ms por pedido' },
    color: { field: 'scenario', type: 'nominal', title: 'cenário' },
    // the engine drawn twice over, dashes and point shapes, so its legend has something to show
    strokeDash: { field: 'engine', type: 'nominal', title: 'motor' },
    shape: { field: 'engine', type: 'nominal', title: 'motor' },
  },
};
const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
writeFileSync(svg, await view.toSVG());
console.log(`\nGráfico escrito em ${svg}.`);

/**
 * The cost curve of `npm run bench:curve` and `npm run bench:growth`: per engine and scenario, the
 * figures at each stock size, the growth of the machine's CPU per request from the smallest stock
 * to the largest, and the chart of that CPU against the stock's size (Vega-Lite, rendered to SVG).
 */
import { writeFileSync } from 'node:fs';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/** The OpenSearch engine's CPU per request may grow at most this much from the smallest stock to the largest. */
export const MAX_GROWTH = 1.5;
/** Past this share of errors, a measure is of refusals. */
const MAX_ERRORS = 0.05;

/** One scenario of one engine at one stock size. */
export interface CurvePoint {
  engine: string;
  scenario: string;
  items: number;
  p50: number;
  p99: number;
  rps: number;
  /** the machine's CPU per request (ms) */
  cpu: number;
  /** the share of answers that were errors */
  errors: number;
}

const refused = (p: CurvePoint | undefined) => p !== undefined && p.errors > MAX_ERRORS;

export const millions = (items: number) =>
  `${(items / 1e6).toLocaleString('pt-PT', { maximumFractionDigits: 2 })} M`;

/**
 * The table: each size's figures and the CPU's growth from the smallest stock to the largest. A
 * scenario whose answers were more than 5 % errors (an engine shedding what it cannot answer in
 * time) is marked, and no growth is given for it: its figures measure refusals, not the work.
 */
export function printCurve(points: CurvePoint[]): void {
  const sizes = [...new Set(points.map((p) => p.items))].sort((a, b) => a - b);
  const [smallest, largest] = [sizes[0]!, sizes[sizes.length - 1]!];
  const header = [
    'motor',
    'cenário',
    ...sizes.map((items) => `${millions(items)}: p50 / p99, req/s, CPU ms/pedido`),
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
    const cells = sizes.map((items) => {
      const p = at(items);
      if (!p) return '–';
      const figures = `${Math.round(p.p50)} / ${Math.round(p.p99)} ms, ${p.rps.toFixed(0)}, ${p.cpu.toFixed(2)}`;
      return refused(p) ? `${figures} (${(p.errors * 100).toFixed(0)} % erros: recusas)` : figures;
    });
    console.log(`| ${engine} | ${scenario} | ${cells.join(' | ')} | ${verdict} |`);
  }
}

/** The machine's CPU per request against the stock's size, a line per scenario and engine, to `svg`. */
export async function drawCurve(points: CurvePoint[], svg: string): Promise<void> {
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
      y: {
        field: 'cpu',
        type: 'quantitative',
        scale: { type: 'log' },
        title: 'CPU da máquina, ms por pedido',
      },
      color: { field: 'scenario', type: 'nominal', title: 'cenário' },
      // the engine drawn twice over, dashes and point shapes, so its legend has something to show
      strokeDash: { field: 'engine', type: 'nominal', title: 'motor' },
      shape: { field: 'engine', type: 'nominal', title: 'motor' },
    },
  };
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  writeFileSync(svg, await view.toSVG());
  console.log(`\nGráfico escrito em ${svg}.`);
}

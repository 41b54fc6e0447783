/**
 * npm run bench:curve -- run-1m.json run-5m.json [--svg docs/search-cost-curve.svg]
 *
 * How each engine's cost grows with the stock: reads what `npm run bench:search -- --out F` saved
 * at several stock sizes (the same scenarios; each run sampled its queries from its own stock:
 * `npm run bench:growth` measures two sizes in one run, on the same queries), prints per engine and
 * scenario p50/p99, req/s and the machine's CPU per request at each size with the growth factor
 * from the smallest size to the largest (target for OpenSearch: at most 1.5x on every scenario),
 * and draws the CPU per request against the stock's size (Vega-Lite, rendered to SVG). A scenario
 * whose answers were more than 5 % errors (an engine shedding what it cannot answer in time) is
 * marked in the table and left out of the chart: its figures measure refusals, not the work.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { drawCurve, printCurve, type CurvePoint } from './bench-search/curve.js';
import type { MeasuredSize } from './bench-search/measure.js';

const opts = new Command()
  .argument('<files...>', 'medições de npm run bench:search -- --out (uma por tamanho do stock)')
  .option('--svg <file>', 'onde escrever o gráfico', 'docs/search-cost-curve.svg')
  .parse();
const sizes = (opts.args as string[]).map((file) => JSON.parse(readFileSync(file, 'utf8')) as MeasuredSize);
if (new Set(sizes.map((s) => s.items)).size < 2) {
  console.error('Indique pelo menos duas medições (tamanhos do stock diferentes).');
  process.exit(1);
}
const { svg } = opts.opts<{ svg: string }>();

const points: CurvePoint[] = sizes.flatMap((size) =>
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
printCurve(points);
await drawCurve(points, svg);

import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  label: string;
  values: number[];
  color: string;
  bars?: boolean;
}

/** A uPlot chart over x values (Unix seconds when `time`), loaded only by the pages that draw one. */
export default function Chart({
  title,
  x,
  series,
  time = true,
}: {
  title: string;
  x: number[];
  series: Series[];
  time?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = Math.max(280, Math.min(element.clientWidth || 600, 900));
    const bars = uPlot.paths.bars?.({ size: [0.8, 60] });
    const plot = new uPlot(
      {
        title,
        width,
        height: 240,
        scales: { x: { time } },
        series: [
          {},
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            fill: s.bars ? s.color : undefined,
            paths: s.bars ? bars : undefined,
          })),
        ],
      },
      [x, ...series.map((s) => s.values)],
      element,
    );
    return () => plot.destroy();
  }, [title, x, series, time]);
  return <div ref={box} class="chart" role="img" aria-label={title} />;
}

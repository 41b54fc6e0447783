import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { LOCALES, useI18n } from '../i18n';

export interface Series {
  label: string;
  values: number[];
  color: string;
  bars?: boolean;
}

/**
 * A uPlot chart over x values (Unix seconds when `time`), loaded only by the pages that draw one.
 * The canvas says nothing to a screen reader, so the same figures follow in a table (folded away
 * under "the chart's figures").
 */
export default function Chart({
  title,
  xLabel,
  xLabels,
  x,
  series,
  time = true,
}: {
  title: string;
  /** What the x values are (the legend's and the table's first column). */
  xLabel: string;
  /** Each x value as the legend and the table show it (by position: two points may share a value). */
  xLabels: string[];
  x: number[];
  series: Series[];
  time?: boolean;
}) {
  const { t, lang } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    // The chart fills its card, and follows it when the window is resized.
    const widthOf = () => Math.max(280, element.clientWidth || 600);
    const bars = uPlot.paths.bars?.({ size: [0.8, 60] });
    // uPlot writes its time axis in American English ("10/28"); the page's language writes days its way.
    const day = new Intl.DateTimeFormat(LOCALES[lang], { day: 'numeric', month: 'numeric', timeZone: 'UTC' });
    const plot = new uPlot(
      {
        title,
        width: widthOf(),
        height: 240,
        scales: { x: { time } },
        axes: [
          time ? { values: (_plot, splits) => splits.map((s) => day.format(new Date(s * 1000))) } : {},
          {},
        ],
        series: [
          { label: xLabel, value: (_plot, _value, _series, index) => xLabels[index ?? -1] ?? '—' },
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
    const resized = new ResizeObserver(() => {
      if (plot.width !== widthOf()) plot.setSize({ width: widthOf(), height: 240 });
    });
    resized.observe(element);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [title, xLabel, xLabels, x, series, time, lang]);
  return (
    <figure class="chart-figure">
      <div ref={box} class="chart" role="img" aria-label={title} />
      <details>
        <summary>{t('chartFigures')}</summary>
        <table data-testid="chart-figures">
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{xLabel}</th>
              {series.map((s) => (
                <th scope="col" key={s.label}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {xLabels.map((label, row) => (
              <tr key={row}>
                <th scope="row">{label}</th>
                {series.map((s) => (
                  <td key={s.label}>{s.values[row]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

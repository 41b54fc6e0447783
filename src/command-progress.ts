import { Presets, SingleBar } from 'cli-progress';

/**
 * How often a long command says how far it got where nothing redraws a bar: a supervisor's or a
 * container's log, a CI job.
 */
const LOG_LINE_EVERY_MS = 30_000;

/**
 * A long command's progress on stderr (stdout keeps its results). On a terminal, a bar redrawn in
 * place; without one (its output kept in a log), the same figures as a line at the start, every 30
 * s and at the end, without the bar's drawing, where cli-progress by itself writes nothing.
 */
export function commandProgressBar(format: string, stream: NodeJS.WriteStream = process.stderr): SingleBar {
  return new SingleBar(
    {
      format: stream.isTTY ? format : format.replace('[{bar}] ', ''),
      stream,
      noTTYOutput: true,
      notTTYSchedule: LOG_LINE_EVERY_MS,
      // in a log each line already ends with its newline: no blank line after the last
      clearOnComplete: !stream.isTTY,
    },
    Presets.shades_classic,
  );
}

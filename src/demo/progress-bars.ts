import cliProgress from 'cli-progress';
import type { LoadProgress } from './load-phases.js';

export interface PhaseBars {
  onProgress: LoadProgress;
  /** stop the running bar and print its summary line */
  finish(): void;
}

/**
 * One progress bar per phase on stderr (stdout stays for the results). Without a terminal the
 * bars stay silent and only the one-line summary of each phase is printed, so logs of
 * containers and CI stay readable.
 */
export function phaseBars(stream: NodeJS.WriteStream = process.stderr): PhaseBars {
  let bar: cliProgress.SingleBar | null = null;
  let phase: string | null = null;
  let started = 0;

  const close = () => {
    if (!bar || phase === null) return;
    bar.stop();
    const seconds = (performance.now() - started) / 1000;
    stream.write(`${phase}: concluído em ${seconds.toFixed(1)} s\n`);
    bar = null;
    phase = null;
  };

  return {
    onProgress(name, done, total) {
      if (name !== phase) {
        close();
        phase = name;
        started = performance.now();
        bar = new cliProgress.SingleBar(
          {
            stream,
            format: `${name.padEnd(24)} [{bar}] {percentage}% | {value}/{total} | ETA {eta_formatted}`,
            hideCursor: true,
            etaBuffer: 50,
            fps: 5,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, done);
      } else {
        bar?.update(done);
      }
    },
    finish: close,
  };
}

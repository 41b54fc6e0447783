import { readFileSync } from 'node:fs';

/** The resident memory of a process, in bytes, from /proc (0 once it has exited). */
function rssOf(pid: number): number {
  try {
    const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Samples another process's RSS every `everyMs` (the feed worker, which the benchmark does not run
 * in its own process, so its memoryUsage() is out of reach); `peak` is the highest seen so far.
 */
export function sampleRss(pid: number, everyMs = 200): { peak(): number; stop(): void } {
  let peak = rssOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), everyMs);
  return { peak: () => peak, stop: () => clearInterval(timer) };
}

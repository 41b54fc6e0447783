import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildWebIfStale } from '../../scripts/web-build-if-stale.js';

const LOCK = join(process.cwd(), 'test-output', 'web-build.lock');
/** A lock older than this was left by a run that died while building: taken over. */
const STALE_LOCK_MS = 5 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The dashboard built when stale (scripts/web-build-if-stale.ts), one test file at a time: the
 * browser test files run in parallel forks, and two Vite builds into web/dist at once would empty
 * the folder under each other (or under the other file's app, already serving it). The one that
 * waited then finds the build fresh and does nothing.
 */
export async function buildWebOnce(): Promise<void> {
  mkdirSync(join(process.cwd(), 'test-output'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS)
          rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      await sleep(200);
    }
  }
  try {
    buildWebIfStale();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

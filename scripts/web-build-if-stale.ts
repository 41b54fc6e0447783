/**
 * Builds the dashboard (web/ → web/dist) when its build is missing or older than any of its
 * sources; otherwise does nothing. `npm start` runs it first (prestart), so a fresh clone serves
 * the dashboard after `npm ci` alone; the browser tests call it too.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const WEB = join(ROOT, 'web');
const BUILT = join(WEB, 'dist', 'index.html');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when it built. Throws when the build fails. */
export function buildWebIfStale(): boolean {
  let builtAt = 0;
  try {
    builtAt = statSync(BUILT).mtimeMs;
  } catch {
    // no build yet
  }
  const sources = Math.max(newestSource(WEB), statSync(join(ROOT, 'package-lock.json')).mtimeMs);
  if (builtAt > sources) return false;
  process.stdout.write(builtAt ? '[web] o painel mudou: a reconstruir…\n' : '[web] a construir o painel…\n');
  const result = spawnSync('npx', ['vite', 'build', '-c', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`[web] a construção do painel falhou (código ${result.status})`);
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    buildWebIfStale();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}

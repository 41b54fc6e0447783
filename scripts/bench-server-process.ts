/**
 * How the benchmark scripts start the server they measure: compiled (npm run build) and run from
 * dist/, as the Dockerfile runs the service. Under tsx the transpiler and its source maps hold a
 * good part of the process's memory, which is not the service's.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

let built = false;

/**
 * Builds the project (npm run build) once per benchmark run into dist/, with the migrations and
 * mappings where the compiled code finds them; returns dist/.
 */
export function buildCompiled(): string {
  if (!built) {
    console.log('A compilar o servidor (npm run build)…');
    execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
    built = true;
  }
  // the migration runner reads ../../sql from dist/src/db/, the indexer ../mappings from dist/indexer/
  // (the Dockerfile copies both there)
  for (const dir of ['sql', 'mappings'])
    if (!existsSync(join(ROOT, 'dist', dir))) symlinkSync(join(ROOT, dir), join(ROOT, 'dist', dir));
  return join(ROOT, 'dist');
}

/** The path of a compiled file (`scripts/x.js`, `indexer/main.js`) under dist/, built first. */
export const compiled = (path: string): string => join(buildCompiled(), path);

/** Forks dist/scripts/<name>.js with an IPC channel, with `env` on top of this process's environment. */
export function forkCompiledServer(
  name: string,
  execArgv: string[] = [],
  env: Record<string, string> = {},
): ChildProcess {
  return fork(compiled(`scripts/${name}.js`), [], {
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

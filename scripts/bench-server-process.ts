/**
 * How the benchmark scripts start the server they measure: compiled (npm run build) and run from
 * dist/, as the Dockerfile runs the service. Under tsx the transpiler and its source maps held
 * ~70 MB of the process's memory (RSS at rest 195 MB against 127 MB compiled), which is not the
 * service's.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Builds the project (npm run build) into dist/, with the migrations where dist/src/db/ finds them; returns dist/. */
export function buildCompiled(): string {
  console.log('A compilar o servidor (npm run build)…');
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  // the migration runner reads ../../sql from dist/src/db/ (the Dockerfile copies it there)
  if (!existsSync(join(ROOT, 'dist', 'sql'))) symlinkSync(join(ROOT, 'sql'), join(ROOT, 'dist', 'sql'));
  return join(ROOT, 'dist');
}

/** Builds the project and forks dist/scripts/<name>.js with an IPC channel. */
export function forkCompiledServer(name: string, execArgv: string[] = []): ChildProcess {
  buildCompiled();
  return fork(join(ROOT, 'dist', 'scripts', `${name}.js`), [], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

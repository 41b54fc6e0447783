/**
 * How the benchmark scripts start the server they measure: compiled (npm run build) and run from
 * dist/, as the Dockerfile runs the service. Under tsx the transpiler and its source maps hold a
 * good part of the process's memory, which is not the service's.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
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

/** A compiled process of the service (the indexer, the feed worker) as a benchmark runs it. */
export interface CompiledChild {
  child: ChildProcess;
  /** what it has logged so far (stdout and stderr) */
  output(): string;
  /** SIGKILL, as a crash: nothing finished, nothing closed; resolves once it has exited */
  kill(): Promise<void>;
  /** SIGTERM: it finishes the work in hand; resolves once it has exited */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/**
 * Spawns dist/<path> with `args`, `env` over this process's (LOG_LEVEL info), its log kept;
 * resolves once its log shows `readyMessage` (a pino `msg`).
 */
export async function startCompiledChild(
  path: string,
  args: string[],
  env: Record<string, string>,
  readyMessage: string,
  startTimeoutMs = 600_000,
): Promise<CompiledChild> {
  const child = spawn(process.execPath, [compiled(path), ...args], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const until = Date.now() + startTimeoutMs;
  while (!output.includes(`"${readyMessage}"`)) {
    if (child.exitCode !== null) throw new Error(`${path} terminou:\n${output}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`${path} não arrancou em ${startTimeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    output: () => output,
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited(child);
    },
  };
}

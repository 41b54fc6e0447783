/**
 * A redis-server of one's own, on a free port, for fault tests and the soak benchmark: it can be
 * killed (SIGKILL, as a crash) and started again on the same port, empty (no persistence).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, Socket } from 'node:net';

export interface RedisServerProcess {
  port: number;
  url: string;
  /** SIGKILL, then wait for the process to be gone */
  kill(): Promise<void>;
  /** start again on the same port and wait until it accepts connections */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A port nothing listens on right now (the kernel's choice). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once a PING on `port` is answered with PONG; rejects after `timeoutMs`. */
async function untilAnswering(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answered = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.setTimeout(500);
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
      socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    });
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer within ${timeoutMs} ms`);
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

export async function startRedisServer(port?: number): Promise<RedisServerProcess> {
  const chosen = port ?? (await freePort());
  let child: ChildProcess | null = null;
  const start = async () => {
    const started = spawn(
      'redis-server',
      [
        '--port',
        String(chosen),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
      ],
      { stdio: 'ignore' },
    );
    child = started;
    await Promise.race([
      untilAnswering(chosen),
      new Promise<never>((_, reject) =>
        started.once('exit', (code) =>
          reject(new Error(`redis-server exited with ${code} on port ${chosen}`)),
        ),
      ),
    ]);
  };
  const kill = async () => {
    const current = child;
    if (!current) return;
    child = null;
    current.kill('SIGKILL');
    await exited(current);
  };
  await start();
  return {
    port: chosen,
    url: `redis://127.0.0.1:${chosen}`,
    kill,
    restart: start,
    stop: kill,
  };
}

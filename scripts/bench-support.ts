/** What the benchmark scripts share: their config, the bare baseline server, the stop message. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { loadConfig, type Config } from '../src/config.js';
import type { RunningServer } from '../src/server.js';

/** The environment's settings, quiet, no demo data, a fixed token secret unless one is given. */
export function benchConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    SEED_DEMO_DATA: 'false',
    SEARCH_TOKEN_SECRET: process.env.SEARCH_TOKEN_SECRET ?? 'bench-secret-bench-secret-bench-secret-00',
    ...overrides,
  });
}

/** Serves the bare baseline handler on a random local port; returns its URL and server. */
export async function serveBare(app: Koa): Promise<{ url: string; server: Server }> {
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** In a forked bench server: close both servers and exit when the parent says stop. */
export function stopOnRequest(
  api: RunningServer,
  bare: Server,
  extra: (message: { type: string }) => void = () => {},
) {
  process.on('message', (message: { type: string }) => {
    extra(message);
    if (message.type === 'stop') {
      // The load generator may leave requests in flight: let the bare server finish them before
      // the API closes the database they share.
      bare.closeIdleConnections();
      bare.close(() => void api.close().then(() => process.exit(0)));
    }
  });
}

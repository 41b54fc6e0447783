import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from './app.js';
import { startMetricsServer } from './metrics/metrics-server.js';
import { clientErrorResponder } from './http/client-error.js';
import { securityHeaders } from './http/security-headers.js';
import type { Services } from './services.js';

export interface RunningServer {
  server: Server;
  url: string;
  /** GET /metrics on METRICS_PORT; null when it is not set */
  metricsUrl: string | null;
  /** stop accepting, let in-flight requests finish (up to the shutdown timeout), then close services */
  close(): Promise<void>;
}

/**
 * Node's own deadline for a request to arrive whole (its requestTimeout, 300 s by default) is the
 * longest any route allows: an upload's (UPLOAD_TIMEOUT_SECONDS), so that a seller's feed on a slow
 * link is not cut at five minutes. A JSON body's shorter deadline is the body reader's
 * (BODY_TIMEOUT_SECONDS); the headers keep Node's 60 s. Node looks for late requests every
 * `connectionsCheckingInterval`: a fifth of the deadline, between 1 and 30 s (Node's default).
 */
function requestDeadlines(uploadTimeoutSeconds: number) {
  const requestTimeout = uploadTimeoutSeconds * 1000;
  return {
    requestTimeout,
    headersTimeout: Math.min(60_000, requestTimeout),
    connectionsCheckingInterval: Math.min(30_000, Math.max(1_000, requestTimeout / 5)),
  };
}

export async function startServer(
  services: Services,
  port = services.config.port,
  host = services.config.host,
  options: AppOptions = {},
): Promise<RunningServer> {
  const app = createApp(services, options);
  const server = createServer(requestDeadlines(services.config.uploadTimeoutSeconds), app.callback());
  server.keepAliveTimeout = 65_000;
  server.on('clientError', clientErrorResponder(securityHeaders(services.config.hstsMaxAgeSeconds)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const metrics =
    services.config.metricsPort === null
      ? null
      : await startMetricsServer(services.metrics, services.config.metricsPort, host);
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  let closing: Promise<void> | undefined;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    metricsUrl: metrics?.url ?? null,
    close() {
      closing ??= (async () => {
        await metrics?.close();
        const drained = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timeout = new Promise<void>((resolve) =>
          setTimeout(() => {
            server.closeAllConnections();
            resolve();
          }, services.config.shutdownTimeoutMs).unref(),
        );
        await Promise.race([drained, timeout]);
        await services.close();
      })();
      return closing;
    },
  };
}

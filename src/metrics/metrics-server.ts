import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.js';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

const notFound = JSON.stringify({
  success: false,
  mensagem: 'Rota não encontrada: este porto serve apenas GET /metrics.',
  code: 'ROUTE_NOT_FOUND',
});

/**
 * GET /metrics on a port of its own (METRICS_PORT), without credentials: a port that only the
 * monitoring network reaches, apart from the API's, is the usual Prometheus arrangement.
 */
export async function startMetricsServer(
  metrics: Metrics,
  port: number,
  host: string,
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' }).end(notFound);
      return;
    }
    metrics.expose().then(
      ({ contentType, text }) => res.writeHead(200, { 'Content-Type': contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return {
    url: `http://${shownHost}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

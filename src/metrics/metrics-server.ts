import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a metrics port exposes: the Prometheus text of a registry. */
export interface MetricsSource {
  expose(): Promise<{ contentType: string; text: string }>;
}

/** GET /ready beside /metrics (the indexer's): a status and a JSON body saying why. */
export type ReadyCheck = () => Promise<{ ready: boolean; body: Record<string, unknown> }>;

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

const notFound = (ready: boolean) =>
  JSON.stringify({
    success: false,
    mensagem: `Rota não encontrada: este porto serve apenas GET /metrics${ready ? ' e GET /ready' : ''}.`,
    code: 'ROUTE_NOT_FOUND',
  });
const json = { 'Content-Type': 'application/json; charset=utf-8' };

/**
 * GET /metrics on a port of its own (the API's METRICS_PORT, the indexer's --metrics-port), without
 * credentials: a port that only the monitoring network reaches, apart from the API's, is the usual
 * Prometheus arrangement. With `ready`, also GET /ready: 200 or 503 with the check's body.
 */
export async function startMetricsServer(
  metrics: MetricsSource,
  port: number,
  host: string,
  ready?: ReadyCheck,
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reading = req.method === 'GET' || req.method === 'HEAD';
    if (path === '/ready' && ready && reading) {
      ready().then(
        (check) => res.writeHead(check.ready ? 200 : 503, json).end(JSON.stringify(check.body)),
        (error: unknown) =>
          res.writeHead(503, json).end(JSON.stringify({ ready: false, error: String(error) })),
      );
      return;
    }
    if (path !== '/metrics' || !reading) {
      res.writeHead(404, json).end(notFound(Boolean(ready)));
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

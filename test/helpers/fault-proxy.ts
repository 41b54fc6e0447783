import { createServer, request as forward, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A stand-in for the network between our code and a real OpenSearch cluster: an HTTP proxy that
 * forwards every request to the cluster, except where a fault is injected. It can hold the
 * cluster's answer back (a slow cluster), answer a given status and body itself (a 429, a 5xx, a
 * timed-out search), drop the connection without an answer, or refuse connections altogether (a
 * cluster that is unreachable). It records every request it received, and whether the client gave
 * up on it before the proxy answered.
 */
export interface ProxiedRequest {
  method: string;
  /** path and query string, as sent */
  url: string;
  path: string;
  query: URLSearchParams;
  body: string;
  /** what the proxy did with it */
  handling: 'forwarded' | 'delayed' | 'answered' | 'dropped';
  /** the status the proxy sent back; null while (or if never) answered */
  status: number | null;
  /** the client closed the connection before the proxy answered */
  abortedByClient: boolean;
}

export type Fault =
  /** forward, and send the cluster's answer only `ms` after the request arrived */
  | { delayMs: number }
  /** answer this without asking the cluster */
  | { status: number; body?: unknown }
  /** close the connection without an answer */
  | { drop: true };

export interface FaultRule {
  method?: string;
  /** matched against the path (without the query string) */
  path?: RegExp;
  /** let this many matching requests through untouched first */
  skip?: number;
  /** apply to this many matching requests (after `skip`), then stop; unlimited when absent */
  times?: number;
  fault: Fault;
}

interface ActiveRule extends FaultRule {
  seen: number;
  applied: number;
}

export class FaultProxy {
  readonly requests: ProxiedRequest[] = [];
  private rules: ActiveRule[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly held = new Set<NodeJS.Timeout>();
  private port = 0;

  private constructor(
    private readonly upstream: URL,
    private readonly server: Server,
  ) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const url = new URL(req.url ?? '/', 'http://proxy');
        const record: ProxiedRequest = {
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          path: url.pathname,
          query: url.searchParams,
          body: body.toString(),
          handling: 'forwarded',
          status: null,
          abortedByClient: false,
        };
        this.requests.push(record);
        res.on('close', () => {
          if (!res.writableFinished && record.handling !== 'dropped') record.abortedByClient = true;
        });
        const fault = this.faultFor(record);
        if (fault && 'drop' in fault) {
          record.handling = 'dropped';
          req.socket.destroy();
          return;
        }
        if (fault && 'status' in fault) {
          record.handling = 'answered';
          const payload = fault.body === undefined ? '' : JSON.stringify(fault.body);
          res.writeHead(fault.status, { 'content-type': 'application/json' });
          res.end(payload, () => (record.status = fault.status));
          return;
        }
        const arrived = Date.now();
        const upstream = forward(
          {
            host: this.upstream.hostname,
            port: this.upstream.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: this.upstream.host },
          },
          (answer) => {
            const parts: Buffer[] = [];
            answer.on('data', (c: Buffer) => parts.push(c));
            answer.on('end', () => {
              const send = () => {
                if (res.destroyed) return;
                res.writeHead(answer.statusCode ?? 502, answer.headers);
                res.end(Buffer.concat(parts), () => (record.status = answer.statusCode ?? 502));
              };
              const wait = fault && 'delayMs' in fault ? fault.delayMs - (Date.now() - arrived) : 0;
              if (wait <= 0) return send();
              record.handling = 'delayed';
              const timer = setTimeout(() => {
                this.held.delete(timer);
                send();
              }, wait);
              this.held.add(timer);
            });
          },
        );
        upstream.on('error', () => {
          // The cluster itself is not there: the client sees the connection go, as it would.
          if (!res.destroyed) req.socket.destroy();
        });
        upstream.end(body);
      });
    });
  }

  /** A proxy on a free local port in front of `upstream` (e.g. http://127.0.0.1:9200). */
  static async start(upstream: string): Promise<FaultProxy> {
    const proxy = new FaultProxy(new URL(upstream), createServer({ keepAlive: true }));
    await proxy.listen(0);
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Adds a fault; rules are tried in the order they were added, the first that applies wins. */
  inject(rule: FaultRule): void {
    this.rules.push({ ...rule, seen: 0, applied: 0 });
  }

  clearFaults(): void {
    this.rules = [];
  }

  /** The requests received so far whose method and path match. */
  received(method: string, path: RegExp): ProxiedRequest[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  /**
   * Stops listening and cuts every open connection: from now on connecting fails (ECONNREFUSED),
   * as with a cluster that is down, until acceptConnections().
   */
  async refuseConnections(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** Listens again, on the same port. */
  async acceptConnections(): Promise<void> {
    await this.listen(this.port);
  }

  async close(): Promise<void> {
    for (const timer of this.held) clearTimeout(timer);
    this.held.clear();
    if (this.server.listening) await this.refuseConnections();
  }

  private faultFor(request: ProxiedRequest): Fault | null {
    for (const rule of this.rules) {
      if (rule.method !== undefined && rule.method !== request.method) continue;
      if (rule.path !== undefined && !rule.path.test(request.path)) continue;
      rule.seen += 1;
      if (rule.seen <= (rule.skip ?? 0)) continue;
      if (rule.times !== undefined && rule.applied >= rule.times) continue;
      rule.applied += 1;
      return rule.fault;
    }
    return null;
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.removeListener('error', reject);
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }
}

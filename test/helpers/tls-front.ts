import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A CA of the test's own and a certificate it issued for 127.0.0.1 (openssl, in a temporary directory). */
export interface TestCa {
  dir: string;
  /** the CA's certificate, PEM: what OPENSEARCH_CA_FILE names */
  caFile: string;
  serverKey: string;
  serverCert: string;
  remove(): void;
}

export function createTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'pss-ca-'));
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=pss test CA',
    '-keyout',
    path('ca.key'),
    '-out',
    path('ca.pem'),
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    path('node.key'),
    '-out',
    path('node.csr'),
  );
  writeFileSync(path('node.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    'x509',
    '-req',
    '-in',
    path('node.csr'),
    '-CA',
    path('ca.pem'),
    '-CAkey',
    path('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    path('node.ext'),
    '-out',
    path('node.pem'),
  );
  return {
    dir,
    caFile: path('ca.pem'),
    serverKey: readFileSync(path('node.key'), 'utf8'),
    serverCert: readFileSync(path('node.pem'), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A stand-in for a secured cluster's front: TLS with a certificate of the test's CA, HTTP basic
 * authentication checked on every request (401 otherwise, as the security plugin answers), and
 * what passes forwarded to a real cluster over plain HTTP. It tests our client's configuration
 * (the CA trusted, the credentials sent to every node, on every request), not the security
 * plugin itself, which the local distribution does not have (docs/opensearch.md).
 */
export class TlsFront {
  /** every request seen: its path and whether its credentials were right */
  readonly requests: { method: string; path: string; authorized: boolean }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(target: string, ca: TestCa, username: string, password: string): Promise<TlsFront> {
    const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    const upstream = new URL(target);
    let front: TlsFront | null = null;
    const server = createServer({ key: ca.serverKey, cert: ca.serverCert }, (req, res) => {
      const authorized = req.headers.authorization === expected;
      front!.requests.push({ method: req.method ?? '', path: req.url ?? '', authorized });
      if (!authorized) {
        res.writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': 'Basic realm="OpenSearch Security"',
        });
        res.end(
          JSON.stringify({
            error: { type: 'security_exception', reason: 'missing authentication credentials' },
            status: 401,
          }),
        );
        return;
      }
      const headers = { ...req.headers };
      delete headers.authorization;
      headers.host = upstream.host;
      const forwarded = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      req.pipe(forwarded);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    front = new TlsFront(server, `https://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return front;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

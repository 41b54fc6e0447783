import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, creditsOf } from '../helpers/accounts-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

function expectSecurityHeaders(headers: Headers | Record<string, unknown>) {
  const get = (name: string) =>
    headers instanceof Headers ? headers.get(name) : (headers[name] as string | undefined);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(get(name), name).toBe(value);
  expect(get('content-security-policy')).toContain("frame-ancestors 'none'");
}

/** A raw GET (fetch refuses some of what a hostile client sends); resolves with status, headers, body. */
function rawGet(baseUrl: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(`${baseUrl}${path}`, { headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('HTTP hardening', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('sends nosniff, frame-ancestors and no-referrer on answers and errors alike, and no HSTS by default', async () => {
    for (const res of [
      await app.api.get('/health'),
      await app.api.get('/nope', { unchecked: true }),
      await app.api.post('/data/search', { reference: 'X' }),
      await app.api.get('/data/catalog/fuels?lang=xx'),
    ]) {
      expectSecurityHeaders(res.headers);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('answers an over-long URL with the JSON envelope, not Node bare 431', async () => {
    const res = await rawGet(app.baseUrl, `/data/catalog/parts?q=${'a'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toEqual({
      success: false,
      code: 'REQUEST_HEADERS_TOO_LARGE',
      mensagem: expect.stringMatching(/demasiado longos/),
    });
    expectSecurityHeaders(res.headers);
    expect(res.headers['x-api-version']).toBe('2.0');
    // and so are over-long headers
    const headers = await rawGet(app.baseUrl, '/health', { 'X-Filler': 'b'.repeat(20_000) });
    expect(headers.status).toBe(431);
    expect(JSON.parse(headers.body)).toMatchObject({ success: false, code: 'REQUEST_HEADERS_TOO_LARGE' });
    // the server is still there
    expect((await app.api.get('/health')).status).toBe(200);
  });

  it('answers a request Node cannot parse with a 400 envelope', async () => {
    const { port } = new URL(app.baseUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({
      success: false,
      code: 'MALFORMED_REQUEST',
    });
  });

  it('keeps the connection of a request refused before its body was read when the body is small, closes it when the body is large', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    /** a search without credentials (401, refused before its body is read) of `bytes` bytes */
    const refused = (bytes: number) =>
      new Promise<{ status: number; connection: unknown; reusedSocket: boolean }>((resolve, reject) => {
        const body = JSON.stringify({ text: 'x'.repeat(bytes - 11) });
        const req = httpRequest(
          `${app.baseUrl}/data/search`,
          {
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({
                status: res.statusCode!,
                connection: res.headers.connection,
                reusedSocket: req.reusedSocket,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    try {
      const first = await refused(100);
      expect(first).toMatchObject({ status: 401, connection: 'keep-alive' });
      // the caller does not connect again for its next request
      expect(await refused(100)).toMatchObject({ status: 401, connection: 'keep-alive', reusedSocket: true });
      // a large body is not worth reading to the end: the connection is closed after the answer
      expect(await refused(200_000)).toMatchObject({ status: 401, connection: 'close' });
    } finally {
      agent.destroy();
    }
  });

  it('refuses a JSON body that names __proto__ (prototype poisoning) with 400, charging nothing', async () => {
    const account = await createTestAccount(app.services.db, app.clock);
    const before = await creditsOf(app.services.db, account.accountId);
    for (const rawBody of ['{"reference":"X","__proto__":{"page":5}}', '{"__proto__":{"reference":"X"}}']) {
      const res = await app.api.withApiKey(account.apiKey).request('POST', '/data/search', undefined, {
        rawBody,
        headers: { 'Content-Type': 'application/json' },
        unchecked: true,
      });
      expect(res.status, rawBody).toBe(400);
      expect(res.body, rawBody).toEqual({
        success: false,
        code: 'INVALID_JSON',
        mensagem: 'O corpo do pedido usa a chave "__proto__", que não é aceite: retire-a.',
      });
    }
    expect(await creditsOf(app.services.db, account.accountId)).toBe(before);
  });

  it('serves /V2 in any case, as it serves the paths themselves in any case', async () => {
    for (const path of ['/V2/health', '/v2/HEALTH', '/V2/Health', '/HEALTH']) {
      const res = await app.api.get(path, { unchecked: true });
      expect(res.status, path).toBe(200);
      expect(res.body).toEqual({ success: true, status: 'ok' });
    }
    const missing = await app.api.get('/V2/nope', { unchecked: true });
    expect(missing.body.mensagem).toBe('Rota não encontrada: GET /V2/nope');
  });
});

describe('HSTS when configured', () => {
  it('sends Strict-Transport-Security with the configured max-age on every response', async () => {
    const app = await startTestApp({ env: { HSTS_MAX_AGE_SECONDS: '31536000' } });
    try {
      expect((await app.api.get('/health')).headers.get('strict-transport-security')).toBe(
        'max-age=31536000',
      );
      const long = await rawGet(app.baseUrl, `/health?${'c'.repeat(20_000)}`);
      expect(long.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await app.close();
    }
  });
});

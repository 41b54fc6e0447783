import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/payments/webhook-signature.js';
import { SANDBOX_SECRET, sandboxWithKnownSecret } from '../helpers/payments-fixture.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import type { TestClient } from '../helpers/test-client.js';

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: Record<string, unknown>;
}

/**
 * Announces a 1 MB body, sends only its first bytes and waits for the answer. A server that reads
 * bodies before deciding would wait for the rest, which never comes: the request ends with
 * 'no answer' instead of a status.
 */
function announceBigBody(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Answer | 'no answer'> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(1_000_000), ...headers },
    });
    const giveUp = setTimeout(() => {
      req.destroy();
      resolve('no answer');
    }, 10_000);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        clearTimeout(giveUp);
        resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) as Answer['body'] });
      });
    });
    req.on('error', (error) => {
      clearTimeout(giveUp);
      reject(error);
    });
    req.write('{"reference":"');
  });
}

const fromIp = (client: TestClient, ip: string) => client.with({ 'X-Forwarded-For': ip });

describe('cheap refusals come before the body is read', () => {
  let app: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    app = await startTestApp({
      env: {
        TRUST_PROXY: 'true',
        READY_RATE_LIMIT_PER_MINUTE: '3',
        WEBHOOK_RATE_LIMIT_PER_MINUTE: '3',
      },
      overrides: sandboxWithKnownSecret().overrides,
    });
    account = await createTestAccount(app.services.db, app.clock);
  });
  afterAll(() => app?.close());

  it('answers an unknown path 404 without waiting for its body, and closes that connection', async () => {
    const answer = await announceBigBody(app.baseUrl, 'POST', '/nao/existe');
    expect(answer).not.toBe('no answer');
    const { status, body, headers } = answer as Answer;
    expect(status).toBe(404);
    expect(body).toMatchObject({ success: false, code: 'ROUTE_NOT_FOUND' });
    expect(headers.connection).toBe('close');
  });

  it('answers a missing credential 401 without waiting for the body', async () => {
    const answer = await announceBigBody(app.baseUrl, 'POST', '/data/search');
    expect(answer).not.toBe('no answer');
    expect((answer as Answer).status).toBe(401);
  });

  it('refuses a body over the route limit from its Content-Length, before reading it', async () => {
    const answer = await announceBigBody(app.baseUrl, 'POST', '/data/search', {
      'X-API-Key': account.apiKey,
    });
    expect(answer).not.toBe('no answer');
    const { status, body } = answer as Answer;
    expect(status).toBe(413);
    expect(body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    expect(body.mensagem).toContain('32 KB');
    const webhook = await announceBigBody(app.baseUrl, 'POST', '/payments/webhook', {
      'X-Forwarded-For': '198.51.100.200',
    });
    expect(webhook).not.toBe('no answer');
    expect((webhook as Answer).status).toBe(413);
  });

  it('sets the body limit per route: a search body over 32 KB is refused, a tool image of ~900 KB is read', async () => {
    const api = app.api.withApiKey(account.apiKey);
    const search = await api.post('/data/search', undefined, {
      rawBody: JSON.stringify({ reference: 'X', pad: ' '.repeat(40_000) }),
    });
    expect(search.status).toBe(413);
    expect(search.body.code).toBe('PAYLOAD_TOO_LARGE');
    // a chunked body (no Content-Length) is cut at the limit too
    const chunked = await fetch(`${app.baseUrl}/data/search`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': account.apiKey },
      body: new Blob([`{"reference":"X","pad":"${'y'.repeat(40_000)}"}`]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const image = `data:image/png;base64,${Buffer.alloc(650_000, 1).toString('base64')}`;
    const tool = await api.post('/tools/execute', {
      slug: 'identificar-peca',
      input: { image, description: 'disco' },
    });
    // read and validated (the bytes are not a PNG), not refused for its size
    expect(tool.status).toBe(400);
    expect(tool.body.mensagem).toContain('corpo.input.image');
  });

  it('limits /ready per IP', async () => {
    const here = fromIp(app.api, '203.0.113.90');
    for (let i = 0; i < 3; i++) expect((await here.get('/ready')).status).toBe(200);
    const limited = await here.get('/ready');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, code: 'RATE_LIMITED', remaining: 0 });
    expect((await fromIp(app.api, '203.0.113.91').get('/ready')).status).toBe(200);
  });

  it('limits the webhook per IP', async () => {
    const here = fromIp(app.api, '203.0.113.95');
    const raw = JSON.stringify({ event: 'payment.succeeded', payment: 'pay_nenhum' });
    const deliver = (client: TestClient) =>
      client.post('/payments/webhook', undefined, {
        rawBody: raw,
        headers: {
          'X-Payment-Signature': signWebhook(SANDBOX_SECRET, raw, app.clock.now()),
        },
      });
    for (let i = 0; i < 3; i++) expect((await deliver(here)).status).toBe(404);
    expect((await deliver(here)).status).toBe(429);
    expect((await deliver(fromIp(app.api, '203.0.113.96'))).status).toBe(404);
  });
});

import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, creditsOf, type TestAccount } from '../helpers/accounts-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait-until.js';

interface Answer {
  status: number;
  connection: string | undefined;
  body: { code?: string; mensagem?: string; feed?: { id: string; status: string } };
}

/**
 * Sends `chunks` one every `everyMs`, as a client on a slow link would, and resolves with the
 * answer as soon as it comes (the chunks not yet sent are dropped then).
 */
function trickle(
  url: string,
  headers: Record<string, string>,
  chunks: string[],
  everyMs: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, connection: res.headers.connection, body: JSON.parse(text) }),
      );
    });
    // the server may close the connection while chunks are still being sent: that is the point
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    let sent = 0;
    const next = () => {
      if (answered || req.destroyed) return;
      if (sent === chunks.length) {
        req.end();
        return;
      }
      req.write(chunks[sent++]!);
      setTimeout(next, everyMs);
    };
    next();
  });
}

/**
 * A request must arrive whole in time: a JSON body within BODY_TIMEOUT_SECONDS, an upload (a
 * seller's feed) within UPLOAD_TIMEOUT_SECONDS, which is much longer, so that a large feed on a
 * slow link is not cut as a small body that stalls is.
 */
describe('request deadlines: a JSON body and an upload', { timeout: 60_000 }, () => {
  let app: TestApp;
  let owner: TestAccount;
  let stockKey: string;
  let sellerId: string;

  beforeAll(async () => {
    app = await startTestApp({
      env: { BODY_TIMEOUT_SECONDS: '1', UPLOAD_TIMEOUT_SECONDS: '5', FEEDS_IN_PROCESS: 'true' },
    });
    owner = await createTestAccount(app.services.db, app.clock);
    const session = app.api.withBearer(owner.bearer);
    const seller = await session.post<{ seller: { id: string } }>('/sellers', {
      name: 'Peças Lentas',
      country: 'PT',
    });
    sellerId = seller.body.seller.id;
    const key = await session.post<{ api_key: { key: string } }>('/api-keys', {
      name: 'loja',
      scopes: ['stock:write'],
      seller_id: sellerId,
    });
    stockKey = key.body.api_key.key;
  });
  afterAll(() => app?.close());

  /** A delta feed of `count` lines whose SKUs start with `prefix`, sent a line every `everyMs`. */
  const trickleFeed = (prefix: string, count: number, everyMs: number) =>
    trickle(
      `${app.baseUrl}/stock/feeds?mode=delta`,
      { 'Content-Type': 'text/csv', 'X-API-Key': stockKey },
      [
        'sku;referencia;titulo;condicao;preco\n',
        ...Array.from({ length: count }, (_, i) => `${prefix}-${i};R-${i};Filtro de óleo;novo;${10 + i}\n`),
      ],
      everyMs,
    );

  /** The seller's items whose SKUs start with `prefix`. */
  const itemsNamed = async (prefix: string) =>
    Number(
      (
        await sql<{ n: string }>`
          select count(*) as n from stock_items where vendor_id = ${sellerId} and sku like ${`${prefix}-%`}`.execute(
          app.services.db,
        )
      ).rows[0]!.n,
    );

  it('a JSON body still arriving after its deadline is refused 408, its connection closed, nothing charged', async () => {
    const before = await creditsOf(app.services.db, owner.accountId);
    const body = JSON.stringify({ reference: '1K0615301AA' });
    // one character every 250 ms: about 7 s for the whole body, past its 1 s
    const answer = await trickle(
      `${app.baseUrl}/data/search`,
      {
        'Content-Type': 'application/json',
        'Content-Length': String(body.length),
        'X-API-Key': owner.apiKey,
      },
      [...body],
      250,
    );
    expect(answer).toEqual({
      status: 408,
      connection: 'close',
      body: {
        success: false,
        code: 'REQUEST_TIMEOUT',
        mensagem: 'O corpo do pedido não chegou completo em 1 s.',
      },
    });
    expect(await creditsOf(app.services.db, owner.accountId)).toBe(before);
  });

  it('a feed taking longer than a JSON body may is received whole, and applied', async () => {
    // about 2.5 s for the whole body: past a JSON body's 1 s, within an upload's 5 s
    const answer = await trickleFeed('S', 10, 250);
    expect(answer.status).toBe(202);
    const done = await waitFor(
      'the slow feed applied',
      async () =>
        (
          await app.api
            .withApiKey(stockKey)
            .get<{ feed: { status: string } }>(`/stock/feeds/${answer.body.feed!.id}`)
        ).body.feed,
      (feed) => feed.status === 'done',
    );
    expect(done.status).toBe('done');
    expect(await itemsNamed('S')).toBe(10);
  });

  it('an upload still arriving after its own deadline is refused 408, and leaves no feed behind', async () => {
    // a line every 400 ms for 16 s: past the upload's 5 s
    const answer = await trickleFeed('T', 40, 400);
    expect(answer).toMatchObject({
      status: 408,
      connection: 'close',
      body: { success: false, code: 'REQUEST_TIMEOUT', mensagem: 'O pedido não chegou completo a tempo.' },
    });
    // the feed begun for it goes with its chunks; none of its lines reached the stock
    const feeds = await waitFor(
      'the cut feed removed',
      async () =>
        (
          await sql<{ status: string }>`select status from stock_feeds where vendor_id = ${sellerId}`.execute(
            app.services.db,
          )
        ).rows.map((r) => r.status),
      (statuses) => !statuses.includes('receiving'),
    );
    expect(feeds).toEqual(['done']);
    expect(await itemsNamed('T')).toBe(0);
  });

  it('a refused request whose small body stops half-way: answered once, its connection dropped at the body deadline', async () => {
    const { port } = new URL(app.baseUrl);
    // no credentials: 401 before the body is read; 10 of its 100 bytes sent, then nothing more
    const received = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          'POST /data/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"referen',
        ),
      );
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    // one answer, the 401: not a second one (Node's 408) when its own, an upload's, deadline passes
    expect(received.match(/HTTP\/1\.1 \d{3} /g)).toEqual(['HTTP/1.1 401 ']);
    expect(received).toContain('"code":"UNAUTHORIZED"');
  });
});

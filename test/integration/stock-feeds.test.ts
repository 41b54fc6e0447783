import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import type { TestClient } from '../helpers/test-client.js';
import { waitFor } from '../helpers/wait-until.js';

interface Feed {
  id: string;
  status: string;
  counts: Record<string, number>;
  reason: string | null;
  reason_code: string | null;
  warnings: string[];
  first_errors: { line: number; sku: string | null; field: string | null; message: string }[];
}
interface Item {
  sku: string;
  price: number;
  quantity: number;
  version: string;
}

/**
 * Sellers, API key scopes, single items and feeds through HTTP, the feed worker of the API's own
 * process applying them (the embedded shape's; `npm run feeds` runs the same code): who may write
 * whose stock, what each call answers, and that a refused input leaves the stock as it was.
 */
describe('sellers write their own stock: /sellers, /stock/items, /stock/feeds', () => {
  let app: TestApp;
  let owner: TestAccount;
  let other: TestAccount;
  let sellerA: string;
  let sellerB: string;
  let stockKeyA: string;
  let session: TestClient;

  const db = () => app.services.db;

  beforeAll(async () => {
    // 1 MB feeds at most, so that the limit is cheap to pass
    app = await startTestApp({ env: { FEED_MAX_MB: '1', FEEDS_IN_PROCESS: 'true' } });
    owner = await createTestAccount(db(), app.clock);
    other = await createTestAccount(db(), app.clock);
    session = app.api.withBearer(owner.bearer);
    const a = await session.post<{ seller: { id: string } }>('/sellers', {
      name: 'Peças do Norte',
      country: 'pt',
      city: 'Braga',
    });
    expect(a.status).toBe(201);
    sellerA = a.body.seller.id;
    const b = await app.api
      .withBearer(other.bearer)
      .post<{ seller: { id: string } }>('/sellers', { name: 'Recambios Sur', country: 'ES' });
    sellerB = b.body.seller.id;
    const key = await session.post<{ api_key: { key: string; scopes: string[]; seller_id: string } }>(
      '/api-keys',
      {
        name: 'loja',
        scopes: ['stock:write'],
        seller_id: sellerA,
      },
    );
    expect(key.status).toBe(201);
    expect(key.body.api_key).toMatchObject({ scopes: ['stock:write'], seller_id: sellerA });
    stockKeyA = key.body.api_key.key;
  });
  afterAll(() => app?.close());

  const stockA = () => app.api.withApiKey(stockKeyA);

  const item = (over: Record<string, unknown> = {}) => ({
    reference: '1K0 615 301 AA',
    title: 'Disco de travão',
    condition: 'novo',
    price: 42.5,
    quantity: 3,
    ...over,
  });

  /** Sends a feed's body as a client would, and returns the answer. */
  async function sendFeed(
    client: TestClient,
    query: string,
    body: string | Buffer,
    headers: Record<string, string> = {},
  ) {
    return client.request<{ feed: Feed }>('POST', `/stock/feeds?${query}`, undefined, {
      rawBody: body as string,
      headers: { 'Content-Type': 'text/csv', ...headers },
    });
  }

  const finished = (client: TestClient, id: string) =>
    waitFor(
      `feed ${id} finished`,
      async () => (await client.get<{ feed: Feed }>(`/stock/feeds/${id}`)).body.feed,
      (feed) => ['done', 'refused', 'failed'].includes(feed.status),
    );

  const stockOf = async (sellerId: string) =>
    (
      await sql<{ sku: string; price: string; quantity: number; version: string }>`
        select sku, price, quantity, version from stock_items where vendor_id = ${sellerId} order by sku`.execute(
        db(),
      )
    ).rows;

  describe('sellers and scopes', () => {
    it('an account lists its own sellers, and cannot change another account’s', async () => {
      const list = await session.get<{ sellers: { id: string; country: string; items: number }[] }>(
        '/sellers',
      );
      expect(list.body.sellers).toEqual([expect.objectContaining({ id: sellerA, country: 'PT', items: 0 })]);
      const foreign = await session.patch(`/sellers/${sellerB}`, { city: 'Sevilla' });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ code: 'SELLER_NOT_FOUND' });
      const bad = await session.post('/sellers', { name: 'X', country: 'XX' });
      expect(bad.status).toBe(400);
    });

    it('a stock:write key names a seller of its own account', async () => {
      const none = await session.post('/api-keys', { scopes: ['stock:write'] });
      expect(none.status).toBe(400);
      const foreign = await session.post('/api-keys', { scopes: ['stock:write'], seller_id: sellerB });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ code: 'SELLER_NOT_FOUND' });
      const stray = await session.post('/api-keys', { scopes: ['search'], seller_id: sellerA });
      expect(stray.status).toBe(400);
    });

    it('a search key cannot write stock, and a stock key cannot search', async () => {
      const write = await app.api.withApiKey(owner.apiKey).put('/stock/items/X-1', item());
      expect(write.status).toBe(403);
      expect(write.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
      const search = await stockA().post('/data/search', { reference: '1K0615301AA' });
      expect(search.status).toBe(403);
      expect(search.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    });
  });

  describe('single items by SKU', () => {
    it('PUT creates, the same PUT changes nothing, PATCH changes the price, DELETE removes', async () => {
      const created = await stockA().put<{ result: string; item: Item }>('/stock/items/FIL-1', item());
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        result: 'created',
        item: { sku: 'FIL-1', price: 42.5, country: 'PT' },
      });
      const again = await stockA().put<{ result: string; item: Item }>('/stock/items/FIL-1', item());
      expect(again.status).toBe(200);
      expect(again.body.result).toBe('unchanged');
      expect(again.body.item.version).toBe(created.body.item.version);
      const sold = await stockA().patch<{ result: string; item: Item }>('/stock/items/FIL-1', {
        quantity: 2,
        price: 40,
      });
      expect(sold.body).toMatchObject({ result: 'updated', item: { price: 40, quantity: 2 } });
      expect(BigInt(sold.body.item.version)).toBeGreaterThan(BigInt(created.body.item.version));
      const listed = await stockA().get<{ items: Item[]; total: number }>('/stock/items?sku=FIL-1');
      expect(listed.body).toMatchObject({ total: 1, items: [{ sku: 'FIL-1', price: 40 }] });
      expect((await stockA().delete('/stock/items/FIL-1')).status).toBe(200);
      expect((await stockA().get('/stock/items/FIL-1')).status).toBe(404);
      expect((await stockA().delete('/stock/items/FIL-1')).body).toMatchObject({
        code: 'STOCK_ITEM_NOT_FOUND',
      });
    });

    it('a session writes any seller of its account, naming it; an SKU with a slash or spaces is one SKU', async () => {
      const put = await session.put<{ item: Item }>(
        `/stock/items/${encodeURIComponent('AB/12 X')}?seller=${sellerA}`,
        item(),
      );
      expect(put.status).toBe(201);
      expect(put.body.item.sku).toBe('AB/12 X');
      const unnamed = await session.put('/stock/items/AB-2', item());
      expect(unnamed.status).toBe(400);
    });

    it('a bad item is refused with the field named, and nothing is written', async () => {
      const before = await stockOf(sellerA);
      const condition = await stockA().put('/stock/items/BAD-1', item({ condition: 'partido' }));
      expect(condition.status).toBe(400);
      expect(condition.body).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(String((condition.body as { mensagem: string }).mensagem)).toMatch(
        /condição partido não é conhecida/,
      );
      const cents = await stockA().put('/stock/items/BAD-1', item({ price: 10.123 }));
      expect(cents.status).toBe(400);
      const negative = await stockA().patch('/stock/items/AB-1', { price: -1 });
      expect(negative.status).toBe(400);
      const country = await stockA().put('/stock/items/BAD-1', item({ country: 'QQ' }));
      expect(country.status).toBe(400);
      expect(await stockOf(sellerA)).toEqual(before);
    });

    it('an Idempotency-Key replays the first answer', async () => {
      const headers = { 'Idempotency-Key': 'put-idem-1' };
      const first = await stockA().request<{ item: Item }>('PUT', '/stock/items/IDEM-1', item(), { headers });
      const replay = await stockA().request<{ item: Item }>('PUT', '/stock/items/IDEM-1', item(), {
        headers,
      });
      expect(first.status).toBe(201);
      expect(replay.status).toBe(201);
      expect(replay.body.item.version).toBe(first.body.item.version);
    });

    it('two sellers of one account whose systems choose the same Idempotency-Key never meet', async () => {
      const second = await session.post<{ seller: { id: string } }>('/sellers', {
        name: 'Peças do Sul',
        country: 'PT',
      });
      const keyOfSecond = (
        await session.post<{ api_key: { key: string } }>('/api-keys', {
          name: 'loja-sul',
          scopes: ['stock:write'],
          seller_id: second.body.seller.id,
        })
      ).body.api_key.key;
      const headers = { 'Idempotency-Key': 'pedido-1001' };
      const a = await stockA().request<{ item: Item }>('PUT', '/stock/items/SAME-1', item(), { headers });
      const b = await app.api
        .withApiKey(keyOfSecond)
        .request<{ item: Item }>('PUT', '/stock/items/SAME-1', item(), { headers });
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(b.headers.get('idempotent-replayed')).toBeNull();
      expect(b.body.item.version).not.toBe(a.body.item.version);
      expect((await stockOf(second.body.seller.id)).map((i) => i.sku)).toEqual(['SAME-1']);
    });
  });

  describe('another seller’s stock is out of reach (BOLA)', () => {
    let feedB: string;
    beforeAll(async () => {
      const otherSession = app.api.withBearer(other.bearer);
      await otherSession.put(`/stock/items/B-1?seller=${sellerB}`, item());
      const sent = await sendFeed(
        otherSession,
        `seller=${sellerB}&mode=delta`,
        'sku,reference,title,condition,price\nB-2,X-2,Filtro,novo,oops\n',
      );
      feedB = sent.body.feed.id;
      await finished(otherSession, feedB);
    });

    it('seller A’s key, or A’s account, reads and writes nothing of seller B: every answer is a 404', async () => {
      const before = await stockOf(sellerB);
      for (const client of [stockA(), session]) {
        const asB = `seller=${sellerB}`;
        expect((await client.get(`/stock/items/B-1?${asB}`)).status).toBe(404);
        expect((await client.get(`/stock/items?${asB}`)).status).toBe(404);
        expect((await client.put(`/stock/items/B-1?${asB}`, item({ price: 1 }))).status).toBe(404);
        expect((await client.patch(`/stock/items/B-1?${asB}`, { price: 1 })).status).toBe(404);
        expect((await client.delete(`/stock/items/B-1?${asB}`)).status).toBe(404);
        expect(
          (await sendFeed(client, `${asB}&mode=full&force=true`, 'sku,reference,title,condition,price\n'))
            .status,
        ).toBe(404);
        expect((await client.get(`/stock/feeds?${asB}`)).status).toBe(404);
        expect((await client.get(`/stock/feeds/${feedB}`)).body).toMatchObject({ code: 'FEED_NOT_FOUND' });
        expect((await client.get(`/stock/feeds/${feedB}/errors`, { unchecked: true })).status).toBe(404);
      }
      // and A's own writes never land on B's items of the same SKU
      await stockA().put('/stock/items/B-1', item({ price: 5 }));
      expect(await stockOf(sellerB)).toEqual(before);
    });
  });

  describe('feeds', () => {
    it('a full CSV feed: 202, followed to done, counts and first errors; the error report neutralizes formulas', async () => {
      const body = [
        'sku;referencia;titulo;condicao;preco;quantidade;cor',
        'F-1;1K0 615 301 AA;Disco;novo;42,50;3;azul',
        'F-2;7701 442 136;Filtro;usado;7,10;10;verde',
        '=HYPERLINK("http://x");X-3;Filtro;novo;-3;1;',
        // a cell a spreadsheet splitting on semicolons would cut before a formula
        'F-5;X-5;Filtro;"x;=1+2";5;1;',
      ].join('\n');
      const sent = await sendFeed(stockA(), 'mode=delta', body);
      expect(sent.status).toBe(202);
      expect(sent.headers.get('location')).toBe(`/stock/feeds/${sent.body.feed.id}`);
      const feed = await finished(stockA(), sent.body.feed.id);
      expect(feed).toMatchObject({
        status: 'done',
        counts: { lines: 4, created: 2, updated: 0, unchanged: 0, removed: 0, rejected: 2 },
        warnings: ['Colunas desconhecidas, ignoradas: cor.'],
      });
      expect(feed.first_errors).toEqual([
        {
          line: 4,
          sku: '=HYPERLINK("http://x")',
          field: 'preco',
          message: 'O preço não pode ser negativo: -3.',
        },
        { line: 5, sku: 'F-5', field: 'condicao', message: expect.stringContaining('x;=1+2') },
      ]);
      const report = await stockA().get<string>(`/stock/feeds/${feed.id}/errors`, { unchecked: true });
      expect(report.headers.get('content-type')).toMatch(/text\/csv/);
      const lines = report.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe('linha,sku,campo,mensagem');
      expect(lines[1]).toBe(`4,"'=HYPERLINK(""http://x"")",preco,O preço não pode ser negativo: -3.`);
      expect(lines[2]).toMatch(/^5,F-5,condicao,".*x;'=1\+2/);
      expect(lines[2]).not.toMatch(/;=/);
      const history = await stockA().get<{ feeds: Feed[] }>('/stock/feeds');
      expect(history.body.feeds[0]).toMatchObject({ id: feed.id, status: 'done' });
    });

    it('a NUL in a text or a control character in a reference rejects its line, not the feed; references come back whole', async () => {
      const line = (sku: string, fields: Record<string, unknown>) =>
        JSON.stringify({
          sku,
          reference: `R-${sku}`,
          title: 'Filtro',
          condition: 'novo',
          price: '5.00',
          ...fields,
        });
      const body = [
        line('NUL-1', { title: 'Fil\u0000tro' }),
        line('NUL-2', { references: ['A-1', 'B\u001f2'] }),
        line('NUL-3', { references: ['A-1', 'B-2', 'C 3'] }),
        line('NUL-4', {}),
        // the value a message quotes, and the SKU the report names, hold the NUL too
        line('NUL\u0000-5', { reference: 'R-5', condition: 'par\u0000tido' }),
      ].join('\n');
      const sent = await sendFeed(stockA(), 'mode=delta', body, { 'Content-Type': 'application/x-ndjson' });
      const feed = await finished(stockA(), sent.body.feed.id);
      expect(feed).toMatchObject({ status: 'done', counts: { lines: 5, created: 2, rejected: 3 } });
      expect(feed.first_errors).toEqual([
        {
          line: 1,
          sku: 'NUL-1',
          field: 'titulo',
          message: 'O campo titulo contém o carácter nulo (U+0000).',
        },
        {
          line: 2,
          sku: 'NUL-2',
          field: 'referencias',
          message: 'Uma referência associada contém caracteres de controlo.',
        },
        {
          line: 5,
          sku: 'NUL\uFFFD-5',
          field: 'sku',
          message: 'O campo sku contém o carácter nulo (U+0000).',
        },
        {
          line: 5,
          sku: 'NUL\uFFFD-5',
          field: 'condicao',
          message: expect.stringContaining('A condição par\uFFFDtido não é conhecida'),
        },
      ]);
      const whole = await stockA().get<{ items: { references: string[] }[] }>('/stock/items?sku=NUL-3');
      expect(whole.body.items[0]!.references).toEqual(['A-1', 'B-2', 'C 3']);
      const none = await stockA().get<{ items: { references: string[] }[] }>('/stock/items?sku=NUL-4');
      expect(none.body.items[0]!.references).toEqual([]);
      const header = await sendFeed(
        stockA(),
        'mode=delta',
        'sku,referencia,titulo,condicao,preco,c\u0000r\nNUL-6,R-6,Filtro,novo,5,x\n',
      );
      expect(await finished(stockA(), header.body.feed.id)).toMatchObject({
        status: 'done',
        warnings: ['Colunas desconhecidas, ignoradas: c\uFFFDr.'],
      });
      const put = await stockA().put('/stock/items/NUL-5', item({ title: 'a\u0000b' }));
      expect(put.status).toBe(400);
    });

    it("each listing's language is kept, as a feed or a single call writes it, and follows its text", async () => {
      const languageOf = async (sku: string) =>
        (
          await sql<{ text_language: string | null }>`
            select text_language from stock_items where vendor_id = ${sellerA} and sku = ${sku}`.execute(db())
        ).rows[0]?.text_language;
      const body = [
        'sku;referencia;titulo;descricao;condicao;preco',
        'L-PT;LP-1;Farol dianteiro esquerdo;Peça usada em bom estado, testada antes do envio.;usado;80',
        'L-DE;LP-2;Scheinwerfer links;Gebrauchtteil in gutem Zustand, vor dem Versand geprüft.;usado;80',
        'L-EN;LP-3;Headlight left;Used part in good condition, tested before shipping.;usado;80',
        'L-XX;LP-4;1K0 941 005;;usado;80',
      ].join('\n');
      const sent = await sendFeed(stockA(), 'mode=delta', body);
      expect((await finished(stockA(), sent.body.feed.id)).status).toBe('done');
      expect(await languageOf('L-PT')).toBe('pt');
      expect(await languageOf('L-DE')).toBe('de');
      expect(await languageOf('L-EN')).toBe('en');
      // a code alone is in no language: the index analyses it in all six
      expect(await languageOf('L-XX')).toBeNull();
      // rewritten in another language by a feed, or by a single call: the language follows the text
      const again = await sendFeed(
        stockA(),
        'mode=delta',
        'sku;referencia;titulo;descricao;condicao;preco\nL-DE;LP-2;Headlight left;Used part in good condition, tested before shipping.;usado;80',
      );
      expect((await finished(stockA(), again.body.feed.id)).counts).toMatchObject({ updated: 1 });
      expect(await languageOf('L-DE')).toBe('en');
      // a change of price alone keeps the language the item has, told or not (an item of before)
      await sql`update stock_items set text_language = null where vendor_id = ${sellerA} and sku = 'L-EN'`.execute(
        db(),
      );
      const priced = await sendFeed(
        stockA(),
        'mode=delta',
        'sku;referencia;titulo;descricao;condicao;preco\nL-EN;LP-3;Headlight left;Used part in good condition, tested before shipping.;usado;81\nL-DE;LP-2;Headlight left;Used part in good condition, tested before shipping.;usado;82',
      );
      expect((await finished(stockA(), priced.body.feed.id)).counts).toMatchObject({ updated: 2 });
      expect(await languageOf('L-EN')).toBeNull();
      expect(await languageOf('L-DE')).toBe('en');
      const put = await stockA().put('/stock/items/L-PT', {
        ...item({ reference: 'LP-1' }),
        title: 'Faro delantero izquierdo',
        description: 'Pieza usada en buen estado, probada antes del envío.',
      });
      expect(put.status).toBe(200);
      expect(await languageOf('L-PT')).toBe('es');
    });

    it('the template is public, and a feed of it loads', async () => {
      const template = await app.api.get<string>('/stock/feeds/template.csv', { unchecked: true });
      expect(template.status).toBe(200);
      const sent = await sendFeed(stockA(), 'mode=delta&dry_run=true', template.body);
      const feed = await finished(stockA(), sent.body.feed.id);
      expect(feed).toMatchObject({ status: 'done', counts: { lines: 2, created: 2, rejected: 0 } });
    });

    it('refused inputs answer at once or end refused, and the seller’s stock stays exactly as it was', async () => {
      const before = await stockOf(sellerA);
      const json = await stockA().request('POST', '/stock/feeds?mode=delta', { sku: 1 });
      expect(json.status).toBe(415);
      const deflate = await sendFeed(stockA(), 'mode=delta', 'x', { 'Content-Encoding': 'br' });
      expect(deflate.status).toBe(415);
      const noMode = await sendFeed(stockA(), '', 'sku\n');
      expect(noMode.status).toBe(400);
      const tooBig = await sendFeed(stockA(), 'mode=delta', 'sku\n' + 'x'.repeat(1024 * 1024));
      expect(tooBig.status).toBe(413);

      const refusals: [string | Buffer, Record<string, string>, string][] = [
        [Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x9c, 0x80]), {}, 'INVALID_UTF8'],
        ['referencia,titulo\nX,Y\n', {}, 'MISSING_SKU_COLUMN'],
        ['sku,titulo\n"A-1,unterminated\n', {}, 'MALFORMED_CSV'],
        [
          gzipSync('sku,reference\nA,B\n'.repeat(200)).subarray(0, 40),
          { 'Content-Encoding': 'gzip' },
          'TRUNCATED_GZIP',
        ],
        ['sku,reference,title,condition,price\n', {}, 'EMPTY_FULL_FEED'],
      ];
      for (const [body, headers, code] of refusals) {
        const sent = await sendFeed(stockA(), 'mode=full', body, headers);
        expect(sent.status, code).toBe(202);
        const feed = await finished(stockA(), sent.body.feed.id);
        expect(feed, code).toMatchObject({ status: 'refused', reason_code: code });
        expect(feed.reason).toBeTruthy();
      }
      expect(await stockOf(sellerA)).toEqual(before);
    });

    it('a chunked body past the limit is refused 413 and leaves no feed behind', async () => {
      const feedsBefore = await db().selectFrom('stock_feeds').select('id').execute();
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${app.baseUrl}/stock/feeds?mode=delta`, {
          method: 'POST',
          headers: { 'X-API-Key': stockKeyA, 'Content-Type': 'text/csv', 'Transfer-Encoding': 'chunked' },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.write('sku\n');
        const write = (left: number) => {
          if (left === 0) return req.end();
          if (req.write('x'.repeat(64 * 1024))) setImmediate(() => write(left - 1));
          else req.once('drain', () => write(left - 1));
        };
        write(24);
      });
      expect(status).toBe(413);
      expect(await db().selectFrom('stock_feeds').select('id').execute()).toEqual(feedsBefore);
    });

    it('a client that goes away mid-upload leaves no feed and changes nothing', async () => {
      const before = await stockOf(sellerA);
      const feedsBefore = await db().selectFrom('stock_feeds').select('id').execute();
      await new Promise<void>((resolve) => {
        const req = httpRequest(`${app.baseUrl}/stock/feeds?mode=full&force=true`, {
          method: 'POST',
          headers: { 'X-API-Key': stockKeyA, 'Content-Type': 'text/csv', 'Content-Length': '100000' },
        });
        req.on('error', () => resolve());
        req.write('sku,reference,title,condition,price\nZ-1,REF,Titulo,novo,1.00\n');
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 300);
      });
      await waitFor(
        'the abandoned upload forgotten',
        () => db().selectFrom('stock_feeds').select('id').execute(),
        (rows) => rows.length === feedsBefore.length,
      );
      expect(await stockOf(sellerA)).toEqual(before);
    });

    it('a feed and single-item PATCHes racing on one SKU: the write that commits last holds', async () => {
      await stockA().put('/stock/items/RACE-1', item({ price: 1 }));
      const lines = ['sku,reference,title,condition,price'];
      for (let i = 0; i < 3000; i++) lines.push(`R-${i},REF-${i},Peça ${i},novo,${(i % 90) + 1}.00`);
      lines.push('RACE-1,1K0 615 301 AA,Disco de travão,novo,10.00');
      const sent = await sendFeed(stockA(), 'mode=delta', lines.join('\n'));
      const patches: Item[] = [];
      for (let i = 0; i < 20; i++) {
        const patched = await stockA().patch<{ item: Item }>('/stock/items/RACE-1', { price: 20 + i });
        patches.push(patched.body.item);
        const feed = (await stockA().get<{ feed: Feed }>(`/stock/feeds/${sent.body.feed.id}`)).body.feed;
        if (feed.status === 'done') break;
      }
      await finished(stockA(), sent.body.feed.id);
      const final = (await stockA().get<{ item: Item }>('/stock/items/RACE-1')).body.item;
      const lastPatch = patches.at(-1)!;
      // the item holds the value of whichever write drew the highest version
      if (final.version === lastPatch.version) expect(final.price).toBe(lastPatch.price);
      else {
        expect(BigInt(final.version)).toBeGreaterThan(BigInt(lastPatch.version));
        expect(final.price).toBe(10);
      }
    });
  });
});

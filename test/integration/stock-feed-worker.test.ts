import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createFeed, feedBody, findFeed, firstErrors, receiveBody } from '../../src/stock/feed-store.js';
import { BATCH_LINES, FeedWorker } from '../../src/stock/feed-worker.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

const silent = pino({ level: process.env.FEED_TEST_LOG ?? 'silent' });

/**
 * A seller's feed from its body to its outcome, through the feed store and the feed worker, on the
 * real database (PostgreSQL, or PGlite without DATABASE_URL): what is created, changed, left
 * alone and removed, what is refused and why. The HTTP routes: test/integration/stock-feeds.test.ts.
 */
describe('stock feeds: validated and applied by the feed worker', () => {
  let database: TestDatabase;
  let worker: FeedWorker;
  const db = (): Database => database.handle.db;
  let seller: string;

  /** what the worker logged, message by message */
  const logged: string[] = [];
  const capturing = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line).msg) });

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(db());
    seller = (
      await db()
        .insertInto('vendors')
        .values({ id: 100, name: 'Peças Feed', country_code: 'PT', city: 'Braga' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    worker = new FeedWorker(db(), process.env.FEED_TEST_LOG ? silent : capturing, {
      oneConnection: database.kind === 'pglite',
    });
  });
  afterAll(() => database?.drop());

  async function send(
    body: string | Buffer,
    options: {
      mode?: 'full' | 'delta';
      format?: 'csv' | 'jsonl';
      dryRun?: boolean;
      force?: boolean;
      gzipped?: boolean;
    } = {},
  ) {
    const id = await createFeed(db(), {
      vendorId: seller,
      accountId: null,
      mode: options.mode ?? 'full',
      format: options.format ?? 'csv',
      gzipped: options.gzipped ?? false,
      dryRun: options.dryRun ?? false,
      force: options.force ?? false,
    });
    await receiveBody(db(), id, Readable.from([Buffer.from(body)]), { maxBytes: 64 * 1024 * 1024 });
    expect(await worker.processNext()).toBe(true);
    return (await findFeed(db(), id))!;
  }

  const items = async () =>
    (
      await sql<{ sku: string; price: string; quantity: number; version: string; refs: string[] }>`
        select sku, price, quantity, version,
               coalesce((select array_agg(reference order by reference) from stock_item_references r where r.item_id = i.id), '{}') as refs
          from stock_items i where vendor_id = ${seller} order by sku`.execute(db())
    ).rows;

  const FIRST = [
    'sku;referencia;titulo;condicao;preco;quantidade;marca;modelo;referencias;cor',
    'A-1;1K0 615 301 AA;Disco de travão dianteiro;novo;42,50;3;Volkswagen;Golf VII;BREMBO-1|ATE-2;azul',
    'A-2;7701 442 136;Filtro de óleo;used;7,10;10;Renault;Clio IV;;verde',
    'A-3;04E 115 561;Filtro;refurbished;12;1;;;;',
  ].join('\n');

  it('an item written without a SKU takes its id as one; one written with a SKU keeps it', async () => {
    const written = await sql<{ id: string; sku: string }>`
      insert into stock_items (vendor_id, sku, reference, title, condition, price, location_country_code)
      values (${seller}, null, 'NO-SKU-1', 'Sem SKU', 'novo', 1, 'PT'), (${seller}, 'OWN-1', 'NO-SKU-2', 'Com SKU', 'novo', 1, 'PT')
      returning id, sku`.execute(db());
    const [without, own] = written.rows;
    expect(without!.sku).toBe(String(without!.id));
    expect(own!.sku).toBe('OWN-1');
    await sql`delete from stock_items where id in (${without!.id}, ${own!.id})`.execute(db());
  });

  it('a first full feed creates every valid line (semicolons, decimal commas, English and Portuguese words) and warns of unknown columns', async () => {
    const feed = await send(FIRST);
    expect(feed).toMatchObject({
      status: 'done',
      lines: 3,
      created: 3,
      updated: 0,
      unchanged: 0,
      removed: 0,
      rejected: 0,
    });
    expect(feed.warnings).toEqual(['Colunas desconhecidas, ignoradas: cor.']);
    expect(await items()).toEqual([
      expect.objectContaining({ sku: 'A-1', price: '42.50', quantity: 3, refs: ['ATE-2', 'BREMBO-1'] }),
      expect.objectContaining({ sku: 'A-2', price: '7.10', quantity: 10, refs: [] }),
      expect.objectContaining({ sku: 'A-3', price: '12.00', quantity: 1, refs: [] }),
    ]);
  });

  it('the same file again changes nothing: no version moves', async () => {
    const before = await items();
    const feed = await send(FIRST);
    expect(feed).toMatchObject({ status: 'done', created: 0, updated: 0, unchanged: 3, removed: 0 });
    expect(await items()).toEqual(before);
  });

  it('a full feed removes what it does not name, keeps an item whose line was rejected, and reports the line', async () => {
    const feed = await send(
      [
        'sku,reference,title,condition,price,quantity',
        'A-1,1K0 615 301 AA,Disco de travão dianteiro,new,41.00,3',
        'A-2,7701 442 136,Filtro de óleo,usado,-5,10',
        'A-4,NEW-4,Pastilhas,nuevo,20.00,2',
      ].join('\n'),
      { force: true },
    );
    expect(feed).toMatchObject({ status: 'done', lines: 3, created: 1, updated: 1, removed: 1, rejected: 1 });
    expect((await items()).map((i) => i.sku)).toEqual(['A-1', 'A-2', 'A-4']);
    expect(await firstErrors(db(), feed.id, 10)).toEqual([
      { line: 3, sku: 'A-2', field: 'preco', message: 'O preço não pode ser negativo: -5.' },
    ]);
  });

  it('a full feed sent again byte for byte, the stock untouched since, is answered from the earlier one; after a change it is read again', async () => {
    const body = [
      'sku,reference,title,condition,price,quantity',
      'A-1,1K0 615 301 AA,Disco de travão dianteiro,new,41.00,3',
      'A-2,7701 442 136,Filtro de óleo,usado,-5,10',
      'A-4,NEW-4,Pastilhas,nuevo,20.00,2',
    ].join('\n');
    const before = await items();
    logged.length = 0;
    const again = await send(body, { force: true });
    expect(again).toMatchObject({
      status: 'done',
      lines: 3,
      created: 0,
      updated: 0,
      unchanged: 2,
      removed: 0,
      rejected: 1,
    });
    expect(await firstErrors(db(), again.id, 10)).toEqual([
      { line: 3, sku: 'A-2', field: 'preco', message: 'O preço não pode ser negativo: -5.' },
    ]);
    expect(await items()).toEqual(before);
    expect(logged).toContain('stock feed identical to the last one, stock unchanged since: answered from it');

    // a write of another kind since: the same file is read and applied again, and puts A-1 back
    await sql`update stock_items set price = 99 where vendor_id = ${seller} and sku = 'A-1'`.execute(db());
    logged.length = 0;
    const afterChange = await send(body, { force: true });
    expect(afterChange).toMatchObject({
      status: 'done',
      created: 0,
      updated: 1,
      unchanged: 1,
      removed: 0,
      rejected: 1,
    });
    expect(logged).not.toContain(
      'stock feed identical to the last one, stock unchanged since: answered from it',
    );
    expect((await items()).find((i) => i.sku === 'A-1')?.price).toBe('41.00');

    // a dry run, or the same file as a delta, is never answered from a full feed
    logged.length = 0;
    expect(await send(body, { force: true, dryRun: true })).toMatchObject({ status: 'done', unchanged: 2 });
    expect(await send(body, { mode: 'delta' })).toMatchObject({ status: 'done', unchanged: 2 });
    expect(logged).not.toContain(
      'stock feed identical to the last one, stock unchanged since: answered from it',
    );
  });

  it('a full feed that would remove most of the stock, or an empty one, is refused unless forced, and nothing changes', async () => {
    const before = await items();
    const truncated = await send(
      'sku,reference,title,condition,price\nA-1,1K0 615 301 AA,Disco,novo,41.00\n',
    );
    expect(truncated).toMatchObject({ status: 'refused', reason_code: 'TOO_MANY_REMOVALS' });
    expect(truncated.reason).toMatch(/removeria 2 dos 3 artigos/);
    const empty = await send('sku,reference,title,condition,price\n');
    expect(empty).toMatchObject({ status: 'refused', reason_code: 'EMPTY_FULL_FEED' });
    expect(empty.reason).toMatch(/removeria os 3 artigos/);
    // its one line rejected: the item it names is kept, so the other two are what it would remove
    const rejected = await send('sku,reference,title,condition,price\nA-1,1K0 615 301 AA,Disco,novo,-1\n');
    expect(rejected).toMatchObject({ status: 'refused', reason_code: 'EMPTY_FULL_FEED' });
    expect(rejected.reason).toMatch(/removeria 2 dos 3 artigos/);
    expect(await items()).toEqual(before);
  });

  it('a delta upserts and deletes by SKU, in JSON Lines, gzipped', async () => {
    const lines = [
      { sku: 'A-4', action: 'delete' },
      {
        sku: 'A-5',
        referencia: 'NEW-5',
        titulo: 'Amortecedor',
        condicao: 'novo',
        preco: 99.9,
        quantidade: 1,
        referencias: ['KYB-5'],
      },
      {
        sku: 'A-1',
        referencia: '1K0 615 301 AA',
        titulo: 'Disco de travão dianteiro',
        condicao: 'novo',
        preco: 39.5,
        quantidade: 2,
      },
    ];
    const feed = await send(gzipSync(lines.map((l) => JSON.stringify(l)).join('\n')), {
      mode: 'delta',
      format: 'jsonl',
      gzipped: true,
    });
    expect(feed).toMatchObject({ status: 'done', lines: 3, created: 1, updated: 1, removed: 1, rejected: 0 });
    expect(await items()).toEqual([
      expect.objectContaining({ sku: 'A-1', price: '39.50', quantity: 2, refs: [] }),
      expect.objectContaining({ sku: 'A-2' }),
      expect.objectContaining({ sku: 'A-5', price: '99.90', refs: ['KYB-5'] }),
    ]);
  });

  it('a dry run reports what would change and changes nothing', async () => {
    const before = await items();
    const feed = await send('sku,reference,title,condition,price\nA-9,NEW-9,Novo,novo,1.00\n', {
      mode: 'delta',
      dryRun: true,
    });
    expect(feed).toMatchObject({ status: 'done', dry_run: true, created: 1 });
    expect(await items()).toEqual(before);
  });

  it('repeated SKUs: the later line wins and a warning names both lines', async () => {
    const feed = await send(
      'sku,reference,title,condition,price\nA-7,R-7,Primeiro,novo,1.00\nA-7,R-7,Segundo,novo,2.00\n',
      { mode: 'delta' },
    );
    expect(feed).toMatchObject({ status: 'done', created: 1 });
    expect(feed.warnings).toContain('SKU A-7 repetido nas linhas 2, 3: vale a linha 3.');
    expect((await items()).find((i) => i.sku === 'A-7')).toMatchObject({ price: '2.00' });
  });

  it('SKUs repeated far apart (another batch): each counted once, as the feed as a whole changes it, dry run alike', async () => {
    await send('sku,reference,title,condition,price\nD-1,R-D1,Um,novo,1.00\nD-2,R-D2,Dois,novo,2.00\n', {
      mode: 'delta',
    });
    // the same SKUs again a batch later: lines 2-5, then FILLER lines, then lines FILLER+6 to FILLER+9
    const FILLER = BATCH_LINES;
    const lines = ['sku,reference,title,condition,price,action'];
    lines.push('D-NEW,R-N,Novo,novo,5.00,'); // created, then changed
    lines.push('D-1,R-D1,Um,novo,1.50,'); // changed, then named again as it now is
    lines.push('D-2,R-D2,Dois,novo,2.00,'); // as it is, then removed
    lines.push('D-GONE,R-G,Efémero,novo,9.00,'); // created, then removed
    for (let i = 0; i < FILLER; i++) lines.push(`D-F${i},R-F${i},Enchimento,novo,3.00,`);
    lines.push('D-NEW,R-N,Novo,novo,6.00,');
    lines.push('D-1,R-D1,Um,novo,1.50,');
    lines.push('D-2,R-D2,Dois,novo,2.00,delete');
    lines.push('D-GONE,R-G,Efémero,novo,9.00,delete');
    const body = lines.join('\n');
    const expected = {
      status: 'done',
      lines: FILLER + 8,
      created: FILLER + 1,
      updated: 1,
      unchanged: 0,
      removed: 1,
    };

    const before = await items();
    const planned = await send(body, { mode: 'delta', dryRun: true });
    expect(planned).toMatchObject(expected);
    expect(await items()).toEqual(before);

    const feed = await send(body, { mode: 'delta' });
    expect(feed).toMatchObject(expected);
    const again = (line: number) => line + FILLER + 4;
    expect(feed.warnings).toEqual(
      ['D-NEW', 'D-1', 'D-2', 'D-GONE'].map(
        (sku, i) => `SKU ${sku} repetido nas linhas ${i + 2}, ${again(i + 2)}: vale a linha ${again(i + 2)}.`,
      ),
    );
    const after = new Map((await items()).map((i) => [i.sku, i]));
    expect(after.get('D-NEW')).toMatchObject({ price: '6.00' });
    expect(after.get('D-1')).toMatchObject({ price: '1.50' });
    expect(after.has('D-2')).toBe(false);
    expect(after.has('D-GONE')).toBe(false);
    expect(after.get(`D-F${FILLER - 1}`)).toMatchObject({ price: '3.00' });
    // it ended after its last batch was read (the time it took covers the whole apply)
    const ended = await sql<{ after_reading: boolean }>`
      select finished_at >= heartbeat_at as after_reading from stock_feeds where id = ${feed.id}`.execute(
      db(),
    );
    expect(ended.rows[0]).toEqual({ after_reading: true });
  });

  it('a body it cannot read is refused whole, naming the line, and nothing changes', async () => {
    const before = await items();
    const badUtf8 = Buffer.concat([
      Buffer.from('sku,reference,title,condition,price\nA-1,R,T,novo,1\nA-2,R,'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from(',novo,1\n'),
    ]);
    expect(await send(badUtf8, { mode: 'delta' })).toMatchObject({
      status: 'refused',
      reason_code: 'INVALID_UTF8',
    });
    expect((await findFeedsOfCode('INVALID_UTF8'))[0]!.reason).toMatch(/linha 3/);
    expect(
      await send('sku,reference,title,condition,price\nA-1,"R,T,novo,1\n', { mode: 'delta' }),
    ).toMatchObject({
      status: 'refused',
      reason_code: 'MALFORMED_CSV',
    });
    expect(await send('reference,title,condition,price\nR,T,novo,1\n', { mode: 'delta' })).toMatchObject({
      status: 'refused',
      reason_code: 'MISSING_SKU_COLUMN',
    });
    const truncated = gzipSync('sku,reference,title,condition,price\nA-1,R,T,novo,1\n'.repeat(50)).subarray(
      0,
      60,
    );
    expect(await send(truncated, { mode: 'delta', gzipped: true })).toMatchObject({
      status: 'refused',
      reason_code: 'TRUNCATED_GZIP',
    });
    // a 10 MB line, in CSV and in JSON Lines: refused, naming it, without holding the rest
    const long = 'x'.repeat(10 * 1024 * 1024);
    expect(
      await send(`sku,reference,title,condition,price\nA-1,R,${long},novo,1\n`, { mode: 'delta' }),
    ).toMatchObject({
      status: 'refused',
      reason_code: 'LINE_TOO_LONG',
    });
    expect(
      await send(`{"sku":"A-1"}\n{"sku":"A-2","title":"${long}"}\n`, { mode: 'delta', format: 'jsonl' }),
    ).toMatchObject({ status: 'refused', reason_code: 'LINE_TOO_LONG' });
    expect((await findFeedsOfCode('LINE_TOO_LONG')).map((f) => f.reason)).toEqual([
      expect.stringMatching(/linha 2/),
      expect.stringMatching(/linha 2/),
    ]);
    expect(await items()).toEqual(before);
  });

  const findFeedsOfCode = async (code: string) =>
    db().selectFrom('stock_feeds').select(['reason']).where('reason_code', '=', code).execute();
});

/** What a review of the feed worker found, each case failing before its fix. */
describe('stock feeds: held by one worker, read as written', () => {
  let database: TestDatabase;
  let worker: FeedWorker;
  const db = (): Database => database.handle.db;
  const SELLER = '300';

  beforeAll(async () => {
    database = await createTestDatabase();
    await db()
      .insertInto('vendors')
      .values({ id: Number(SELLER), name: 'Peças Revistas', country_code: 'PT', city: 'Faro' })
      .execute();
    worker = new FeedWorker(db(), silent, { oneConnection: database.kind === 'pglite' });
  });
  afterAll(() => database?.drop());

  /** A feed received whole: `body` as one chunk, or as the chunks given, at most `perSecond` bytes a second. */
  async function received(
    body: string | Buffer[],
    mode: 'full' | 'delta',
    format: 'csv' | 'jsonl' = 'csv',
    perSecond = 0,
  ) {
    const id = await createFeed(db(), {
      vendorId: SELLER,
      accountId: null,
      mode,
      format,
      gzipped: false,
      dryRun: false,
      force: false,
    });
    const chunks = typeof body === 'string' ? [Buffer.from(body)] : body;
    await receiveBody(db(), id, Readable.from(chunks), {
      maxBytes: 64 * 1024 * 1024,
      maxBytesPerSecond: perSecond,
    });
    return id;
  }
  const skus = async () =>
    (
      await sql<{ sku: string; price: string }>`
        select sku, price from stock_items where vendor_id = ${SELLER} order by sku`.execute(db())
    ).rows;
  const jsonl = (lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n');
  const item = (sku: number, price: number) => ({
    sku,
    referencia: `R-${sku}`,
    titulo: `Peça ${sku}`,
    condicao: 'novo',
    preco: price,
  });

  it('a body read at a pace (FEEDS_MAX_UPLOAD_MB_PER_SECOND) is stored whole, and no faster', async () => {
    const CHUNK = 64 * 1024;
    const lines = Array.from({ length: 6_000 }, (_, i) => JSON.stringify(item(50_000 + i, 10 + (i % 90))));
    const body = Buffer.from(lines.join('\n'));
    const chunks = Array.from({ length: Math.ceil(body.length / CHUNK) }, (_, i) =>
      body.subarray(i * CHUNK, (i + 1) * CHUNK),
    );
    const perSecond = 256 * 1024;
    const started = performance.now();
    const id = await received(chunks, 'delta', 'jsonl', perSecond);
    // the pace holds the reading until the bytes read fit it: a lower bound, whatever the machine
    expect(performance.now() - started).toBeGreaterThanOrEqual((body.length / perSecond) * 1000 - 5);
    const stored: Buffer[] = [];
    for await (const chunk of feedBody(db(), id, body.length)) stored.push(chunk as Buffer);
    expect(Buffer.concat(stored).equals(body)).toBe(true);
    expect(await worker.processNext()).toBe(true);
    expect(await findFeed(db(), id)).toMatchObject({ status: 'done', lines: 6_000, created: 6_000 });
    await sql`delete from stock_items where vendor_id = ${SELLER}`.execute(db());
  });

  it('a full feed keeps the item of a rejected line whose SKU is a JSON number', async () => {
    await worker.processFeed(
      await received(jsonl([101, 102, 103, 104].map((n) => item(n, 10))), 'full', 'jsonl'),
    );
    const feed = await findFeed(
      db(),
      await received(jsonl([item(101, 10), item(102, 10), item(103, -5), item(104, 10)]), 'full', 'jsonl'),
    );
    await worker.processFeed(feed!.id);
    expect(await findFeed(db(), feed!.id)).toMatchObject({ status: 'done', rejected: 1, removed: 0 });
    expect((await skus()).map((s) => s.sku)).toEqual(['101', '102', '103', '104']);
  });

  it('a three-letter or numeric country rejects its line, not the feed', async () => {
    const id = await received(
      jsonl([{ ...item(105, 10), pais: 'PRT' }, { ...item(106, 10), pais: '620' }, item(107, 10)]),
      'delta',
      'jsonl',
    );
    await worker.processFeed(id);
    expect(await findFeed(db(), id)).toMatchObject({ status: 'done', created: 1, rejected: 2 });
    expect((await firstErrors(db(), id, 10)).map((e) => e.field)).toEqual(['pais', 'pais']);
  });

  it('a make, model or variant that is too long or not text rejects its line; a semicolon file’s 1.250 is refused as ambiguous, its 1.250,00 read as 1250', async () => {
    const long = 'M'.repeat(201);
    const json = await received(
      jsonl([
        { ...item(108, 10), marca: long },
        { ...item(109, 10), modelo: { nome: 'Golf' } },
        { ...item(110, 10), variante: ['GTI'] },
        { ...item(111, 10), marca: 'Volkswagen', modelo: 'Golf', variante: 'GTI' },
      ]),
      'delta',
      'jsonl',
    );
    await worker.processFeed(json);
    expect(await findFeed(db(), json)).toMatchObject({ status: 'done', created: 1, rejected: 3 });
    expect(await firstErrors(db(), json, 10)).toEqual([
      expect.objectContaining({
        line: 1,
        field: 'marca',
        message: 'O campo marca tem mais de 200 caracteres.',
      }),
      expect.objectContaining({ line: 2, field: 'modelo', message: 'O campo modelo deve ser texto.' }),
      expect.objectContaining({ line: 3, field: 'variante', message: 'O campo variante deve ser texto.' }),
    ]);

    const csv = await received(
      [
        'sku;referencia;titulo;condicao;preco',
        'P-1;R-P1;Jante;novo;1.250',
        'P-2;R-P2;Jante;novo;1.250,00',
        'P-3;R-P3;Jante;novo;12.50',
      ].join('\n'),
      'delta',
    );
    await worker.processFeed(csv);
    expect(await findFeed(db(), csv)).toMatchObject({ status: 'done', created: 2, rejected: 1 });
    expect(await firstErrors(db(), csv, 10)).toEqual([
      expect.objectContaining({
        line: 2,
        sku: 'P-1',
        field: 'preco',
        message:
          'O preço 1.250 é ambíguo num ficheiro separado por ponto e vírgula: escreva 1250 (ou 1250,00) se são milhares, ou 1,25 se o ponto marca as casas decimais.',
      }),
    ]);
    expect((await skus()).filter((s) => s.sku.startsWith('P-'))).toEqual([
      expect.objectContaining({ sku: 'P-2', price: '1250.00' }),
      expect.objectContaining({ sku: 'P-3', price: '12.50' }),
    ]);
  });

  it('references that differ only in spelling are one; a quantity is digits, not 0x10 or 1e3', async () => {
    const id = await received(
      jsonl([
        { ...item(108, 10), referencias: 'AB-1|ab 1|AB.1|CD 2', quantidade: '3,0' },
        { ...item(109, 10), quantidade: '0x10' },
        { ...item(110, 10), quantidade: '1e3' },
      ]),
      'delta',
      'jsonl',
    );
    await worker.processFeed(id);
    expect(await findFeed(db(), id)).toMatchObject({ status: 'done', created: 1, rejected: 2 });
    const refs = await sql<{ reference: string; quantity: number }>`
      select r.reference, i.quantity from stock_items i join stock_item_references r on r.item_id = i.id
       where i.vendor_id = ${SELLER} and i.sku = '108' order by r.reference`.execute(db());
    expect(refs.rows).toEqual([
      { reference: 'AB-1', quantity: 3 },
      { reference: 'CD 2', quantity: 3 },
    ]);
    // the same line again changes nothing
    const again = await received(
      jsonl([{ ...item(108, 10), referencias: 'AB-1|ab 1|AB.1|CD 2', quantidade: 3 }]),
      'delta',
      'jsonl',
    );
    await worker.processFeed(again);
    expect(await findFeed(db(), again)).toMatchObject({ status: 'done', unchanged: 1, updated: 0 });
  });

  it('a header without an end is refused once it passes a line’s limit', async () => {
    const id = await received('sku,'.repeat(300_000), 'delta');
    await worker.processFeed(id);
    expect(await findFeed(db(), id)).toMatchObject({ status: 'refused', reason_code: 'LINE_TOO_LONG' });
  });

  it('a worker that lost its feed to another finishes nothing of it, fails nothing and empties nothing', async () => {
    const before = await skus();
    const id = await received('sku,referencia,titulo,condicao,preco\n101,R-101,Peça 101,novo,11\n', 'delta');
    // another worker took the feed over (attempt 2) and has staged a line of it
    await sql`update stock_feeds set status = 'validating', attempt = 2, heartbeat_at = now() where id = ${id}`.execute(
      db(),
    );
    await sql`insert into stock_feed_lines (feed_id, line, sku, reference, title, condition, price, currency, quantity,
                                            is_oem, is_aftermarket, country, refs)
              values (${id}, 2, '101', 'R-101', 'Peça 101', 'novo', 11, 'EUR', 1, false, false, 'PT', '{}')`.execute(
      db(),
    );

    // the worker of attempt 1, stalled until now, goes on
    await worker.process(id, 1);
    expect(await findFeed(db(), id)).toMatchObject({ status: 'validating', lines: 0 });
    const left = await sql<{ lines: string; chunks: string }>`
      select (select count(*) from stock_feed_lines where feed_id = ${id}) as lines,
             (select count(*) from stock_feed_chunks where feed_id = ${id}) as chunks`.execute(db());
    expect(left.rows[0]).toEqual({ lines: '1', chunks: '1' });
    expect(await skus()).toEqual(before);

    // the holder applies it whole
    await worker.process(id, 2);
    expect(await findFeed(db(), id)).toMatchObject({ status: 'done', updated: 1 });
    expect((await skus()).find((s) => s.sku === '101')?.price).toBe('11.00');
  });
});

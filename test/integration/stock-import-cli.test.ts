import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeed } from '../../src/stock/feed-store.js';
import { FeedWorker } from '../../src/stock/feed-worker.js';
import { runScript } from '../helpers/run-script.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';
import { waitFor } from '../helpers/wait-until.js';

/**
 * npm run stock:import: the operator loads a seller's stock from a file, through the same feed as
 * POST /stock/feeds, and reads the same summary. The repository's example feed loads whole.
 */
describe.skipIf(!TEST_DATABASE_URL)('npm run stock:import', { timeout: 180_000 }, () => {
  let database: TestDatabase;
  let dir: string;
  let seller: string;
  const run = (...args: string[]) =>
    runScript('stock-import.ts', args, { DATABASE_URL: database.url!, LOG_LEVEL: 'silent' });
  const skus = async () =>
    (
      await database.handle.db
        .selectFrom('stock_items')
        .select(['sku', 'price'])
        .where('vendor_id', '=', seller)
        .orderBy('sku')
        .execute()
    ).map((r) => `${r.sku}=${Number(r.price).toFixed(2)}`);

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'stock-import-'));
    seller = (
      await database.handle.db
        .insertInto('vendors')
        .values({ name: 'Sucata Central', country_code: 'PT' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  it('loads the example feed of docs/examples whole, and says what it did', async () => {
    const result = await run(
      '--seller',
      seller,
      '--file',
      'docs/examples/feed-exemplo.csv',
      '--mode',
      'full',
    );
    expect(result.stderr).not.toMatch(/Erro/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/: done/);
    // without a terminal (a log), its progress ends as a line with every line read
    expect(result.stderr).toMatch(/stock:import 100% \| (\d+)\/\1 linhas \| rejeitadas 0 \| ETA 0s\n/);
    expect(result.stdout).toMatch(/criados: +4/);
    expect(result.stdout).toMatch(/rejeitadas: +0/);
    expect(await skus()).toEqual(['ALT-0042=85.00', 'AMO-1200=49.00', 'DIS-0007=64.90', 'FIL-4711=12.50']);
  });

  it('a gzipped JSON Lines delta with a bad line: applied but for it, the line reported and written out', async () => {
    const file = join(dir, 'delta.jsonl.gz');
    const report = join(dir, 'erros.csv');
    writeFileSync(
      file,
      gzipSync(
        [
          JSON.stringify({ sku: 'FIL-4711', action: 'delete' }),
          JSON.stringify({
            sku: 'ALT-0042',
            referencia: '06F 903 023 F',
            titulo: 'Alternador',
            condicao: 'usado',
            preco: 80,
          }),
          JSON.stringify({ sku: 'NEW-1', referencia: 'X', titulo: 'Y', condicao: 'novo', preco: 'caro' }),
        ].join('\n'),
      ),
    );
    const result = await run('--seller', seller, '--file', file, '--errors', report);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/removidos: +1/);
    expect(result.stdout).toMatch(/alterados: +1/);
    expect(result.stdout).toMatch(/linha 3 \(SKU NEW-1\), preco: O preço caro não é um número/);
    expect(readFileSync(report, 'utf8')).toMatch(/^\uFEFFlinha,sku,campo,mensagem\r\n3,NEW-1,preco,/);
    expect(await skus()).toEqual(['ALT-0042=80.00', 'AMO-1200=49.00', 'DIS-0007=64.90']);
  });

  it('a full feed that would remove most of the stock is refused, exit code 2, and nothing changes', async () => {
    const before = await skus();
    const file = join(dir, 'cortado.csv');
    writeFileSync(file, 'sku,reference,title,condition,price\nALT-0042,06F 903 023 F,Alternador,usado,80\n');
    const result = await run('--seller', seller, '--file', file, '--mode', 'full');
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/refused/);
    expect(result.stdout).toMatch(/TOO_MANY_REMOVALS/);
    expect(await skus()).toEqual(before);
  });

  it('a feed another worker takes first is followed to its end, and its summary is the same', async () => {
    const db = database.handle.db;
    // a feed of the seller still running holds the command's feed back (one feed per seller at once)
    const running = await createFeed(db, {
      vendorId: seller,
      accountId: null,
      mode: 'delta',
      format: 'csv',
      gzipped: false,
      dryRun: false,
      force: false,
    });
    await sql`update stock_feeds set status = 'applying', started_at = now(), heartbeat_at = now()
               where id = ${running}`.execute(db);
    const file = join(dir, 'outro.csv');
    writeFileSync(file, 'sku,reference,title,condition,price\nOUT-1,OUT 1,Farol,novo,31.5\n');
    const command = run('--seller', seller, '--file', file);
    const waiting = await waitFor(
      "the command's feed, received",
      () =>
        db
          .selectFrom('stock_feeds')
          .select(['id', 'status'])
          .where('vendor_id', '=', seller)
          .where('id', '>', running)
          .executeTakeFirst(),
      (feed) => feed?.status === 'received',
    );
    // another worker: the running feed ends and the waiting one is taken in the same transaction,
    // so the command never finds it free
    const attempt = await db.transaction().execute(async (trx) => {
      await sql`update stock_feeds set status = 'done', finished_at = now() where id = ${running}`.execute(
        trx,
      );
      const taken = await sql<{ attempt: number }>`
        update stock_feeds set status = 'validating', started_at = now(), heartbeat_at = now(),
                               attempt = attempt + 1
         where id = ${waiting!.id} returning attempt`.execute(trx);
      return taken.rows[0]!.attempt;
    });
    await new FeedWorker(db, pino({ level: 'silent' }), { maxBytes: 10_000_000 }).process(
      waiting!.id,
      attempt,
    );
    const result = await command;
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/está a ser tratado por outro processo/);
    expect(result.stdout).toMatch(/: done/);
    expect(result.stdout).toMatch(/criados: +1/);
    expect(await skus()).toContain('OUT-1=31.50');
  });

  it('refuses an unknown seller or a missing file in one line', async () => {
    const seller0 = await run('--seller', '999999', '--file', 'docs/examples/feed-exemplo.csv');
    expect(seller0.code).toBe(1);
    expect(seller0.stderr).toMatch(/não existe nenhum vendedor com o id 999999/);
    const missing = await run('--seller', seller, '--file', join(dir, 'nada.csv'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/não existe/);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { getPriority } from 'node:os';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createFeed, findFeed, receiveBody } from '../../src/stock/feed-store.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';
import { waitFor, waitUntil } from '../helpers/wait-until.js';

/** A feed worker process, as `npm run feeds` runs it. */
interface WorkerProcess {
  child: ChildProcess;
  output(): string;
  /** SIGKILL, as a crash: nothing finished, nothing closed; resolves once it has exited */
  kill(): Promise<void>;
  /** SIGTERM (the feed in hand finished), unless it has exited already */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** `node --import tsx src/feeds-main.ts` on the test's database; resolves once it takes feeds. */
async function startWorker(databaseUrl: string): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/feeds-main.ts'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      SEARCH_TOKEN_SECRET: 'test-secret-test-secret-test-secret-0123',
      // a feed whose worker went silent for 2 s is taken over
      FEED_STALE_SECONDS: '2',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitUntil(
    () => output.includes('"feed worker started"') || child.exitCode !== null,
    'the feed worker to start',
    60_000,
  );
  if (child.exitCode !== null) throw new Error(`the feed worker exited with ${child.exitCode}:\n${output}`);
  return {
    child,
    output: () => output,
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** the sellers of each case, each holding HELD items before its feed */
const SELLER = '700';
const OTHER_SELLER = '701';
const HELD = 20_000;

/** One stock line as a feed writes it and as the stock must hold it once applied. */
interface Line {
  sku: string;
  reference: string;
  title: string;
  price: string;
  quantity: number;
  refs: string[];
}

const sku = (prefix: string, i: number) => `${prefix}-${String(i).padStart(5, '0')}`;
const price = (i: number, plus = 0) => `${((i % 500) + 1 + plus).toFixed(0)}.50`;
/** Item i of a prefix, as held before (plus = 0) or with its price raised by `plus`. */
const line = (prefix: string, i: number, plus = 0): Line => ({
  sku: sku(prefix, i),
  reference: `REF-${prefix}-${i}`,
  title: `Peça ${prefix} ${i}`,
  price: price(i, plus),
  quantity: 1 + (i % 7),
  refs: i % 10 === 0 ? [`ALT-${prefix}-${i}`] : [],
});

const csv = (lines: Line[]) =>
  [
    'sku,referencia,titulo,condicao,preco,quantidade,referencias',
    ...lines.map(
      (l) => `${l.sku},${l.reference},${l.title},novo,${l.price},${l.quantity},${l.refs.join('|')}`,
    ),
  ].join('\n') + '\n';

/**
 * The feed worker (`npm run feeds`, its own process) SIGKILLed while it holds a large full feed:
 * once while it applies it, once while it validates it. The apply is one transaction that also
 * records the outcome, so the kill leaves nothing of the feed in the stock (nor owed to the index);
 * a worker started again takes the feed over once its heartbeat is stale and applies it whole from
 * the chunks it was received in. Either end — done with the stock exactly the feed's, or failed
 * with a reason and the stock as before — is whole or nothing; which one happens is asserted.
 */
describe.skipIf(!TEST_DATABASE_URL)('the feed worker killed mid-feed', () => {
  let database: TestDatabase;
  const workers: WorkerProcess[] = [];
  const db = (): Database => database.handle.db;

  /** A seller holding HELD items, S-00000…S-19999 (every tenth with an associated reference). */
  async function seed(seller: string): Promise<void> {
    await db()
      .insertInto('vendors')
      .values({
        id: Number(seller),
        name: `Peças Interrompidas ${seller}`,
        country_code: 'PT',
        city: 'Porto',
      })
      .execute();
    const held = Array.from({ length: HELD }, (_, i) => line('S', i));
    await sql`
      insert into stock_items (vendor_id, sku, reference, title, condition, price, quantity, location_country_code)
      select ${seller}, t.sku, t.reference, t.title, 'novo', t.price, t.quantity, 'PT'
        from unnest(${held.map((l) => l.sku)}::text[], ${held.map((l) => l.reference)}::text[],
                    ${held.map((l) => l.title)}::text[], ${held.map((l) => l.price)}::numeric[],
                    ${held.map((l) => l.quantity)}::int[]) as t(sku, reference, title, price, quantity)`.execute(
      db(),
    );
    const withRefs = held.filter((l) => l.refs.length);
    await sql`
      insert into stock_item_references (item_id, reference)
      select i.id, t.reference from unnest(${withRefs.map((l) => l.sku)}::text[], ${withRefs.map((l) => l.refs[0]!)}::text[])
             as t(sku, reference)
        join stock_items i on i.vendor_id = ${seller} and i.sku = t.sku`.execute(db());
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    // the production shape: an indexer follows the stock, so every change owes the index a row
    await sql`update search_indexer_state set enabled = true`.execute(db());
    for (const seller of [SELLER, OTHER_SELLER]) await seed(seller);
    // what the seeding owes the index is not the feeds' doing
    await sql`delete from search_outbox`.execute(db());
  });
  const stopWorkers = async () => {
    for (const worker of workers.splice(0)) await worker.stop();
  };
  afterAll(async () => {
    await stopWorkers();
    await database?.drop();
  });

  const start = async () => {
    const worker = await startWorker(database.url!);
    workers.push(worker);
    return worker;
  };

  /** The seller's stock, each item with what a feed writes and its version. */
  const stock = async (seller: string) =>
    (
      await sql<Line & { version: string }>`
        select i.sku, i.reference, i.title, i.price::text as price, i.quantity, i.version,
               coalesce((select array_agg(r.reference order by r.reference)
                           from stock_item_references r where r.item_id = i.id), '{}') as refs
          from stock_items i where i.vendor_id = ${seller} order by i.sku`.execute(db())
    ).rows;

  const owedToIndex = async () =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from search_outbox where done_at is null`.execute(db()))
        .rows[0]!.n,
    );

  async function queue(seller: string, lines: Line[]): Promise<string> {
    const id = await createFeed(db(), {
      vendorId: seller,
      accountId: null,
      mode: 'full',
      format: 'csv',
      gzipped: false,
      dryRun: false,
      force: false,
    });
    await receiveBody(db(), id, Readable.from([Buffer.from(csv(lines))]), { maxBytes: 256 * 1024 * 1024 });
    return id;
  }

  const ended = (feedId: string) =>
    waitFor(
      `feed ${feedId} to end`,
      () => findFeed(db(), feedId),
      (feed) => ['done', 'failed', 'refused'].includes(feed?.status ?? ''),
      180_000,
    );

  /** The stock exactly as it was (versions included); the first differences shown when not. */
  const expectSameStock = (now: Line[], was: Line[]) => {
    const key = (item: Line) => JSON.stringify(item);
    const wasKeys = new Set(was.map(key));
    const nowKeys = new Set(now.map(key));
    expect({
      items: now.length,
      new: now.filter((item) => !wasKeys.has(key(item))).slice(0, 3),
      gone: was.filter((item) => !nowKeys.has(key(item))).slice(0, 3),
    }).toEqual({ items: was.length, new: [], gone: [] });
  };

  /** An active statement of another backend writing the seller's stock: the apply under way. */
  const applyWriting = async () =>
    Number(
      (
        await sql<{ n: string }>`
          select count(*) as n from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid() and state = 'active'
             and query ~* 'insert\\s+into\\s+stock_items\\M'`.execute(db())
      ).rows[0]!.n,
    ) > 0;

  /**
   * Checks the outcome after the restart: done with the stock exactly the feed's (items it leaves
   * alone keep their version; the index owes exactly the items changed), or failed with a reason
   * and the stock exactly as before. Returns the status.
   */
  async function expectWholeOrNothing(
    seller: string,
    feedId: string,
    feedLines: Line[],
    before: (Line & { version: string })[],
    counts: { created: number; updated: number; unchanged: number; removed: number },
  ): Promise<string> {
    const feed = (await ended(feedId))!;
    const after = await stock(seller);
    if (feed.status !== 'done') {
      expect(feed.status).toBe('failed');
      expect(feed.reason).toBeTruthy();
      expectSameStock(after, before);
      return feed.status;
    }
    expect(feed).toMatchObject({ lines: feedLines.length, rejected: 0, warnings: [], ...counts });
    const held = new Map(before.map((item) => [item.sku, item]));
    const wanted = new Map(feedLines.map((l) => [l.sku, l]));
    const wrong = after.filter((item) => {
      const want = wanted.get(item.sku);
      const { version, ...content } = item;
      if (!want || JSON.stringify(content) !== JSON.stringify(want)) return true;
      const was = held.get(item.sku);
      if (!was) return false;
      // an item the feed leaves as it was is not written (same version); one it changes is
      const { version: wasVersion, ...wasContent } = was;
      return JSON.stringify(wasContent) === JSON.stringify(content)
        ? version !== wasVersion
        : BigInt(version) <= BigInt(wasVersion);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(after.length).toBe(feedLines.length);
    // nothing left behind: the staged lines and the body are gone
    const left = await sql<{ lines: string; chunks: string }>`
      select (select count(*) from stock_feed_lines where feed_id = ${feedId}) as lines,
             (select count(*) from stock_feed_chunks where feed_id = ${feedId}) as chunks`.execute(db());
    expect(left.rows[0]).toEqual({ lines: '0', chunks: '0' });
    expect(await owedToIndex()).toBe(counts.created + counts.updated + counts.removed);
    return feed.status;
  }

  it('killed while writing the stock (the lines read so far, uncommitted): nothing of the feed shows; a new worker applies it whole', async () => {
    await stopWorkers();
    await sql`update search_outbox set done_at = now() where done_at is null`.execute(db());
    const before = await stock(SELLER);
    expect(before).toHaveLength(HELD);
    // 18,000 of the 20,000 named (2,000 removed: 10 %, under the threshold), every third with a
    // new price, and 42,000 new items
    const feedLines = [
      ...Array.from({ length: 18_000 }, (_, i) => line('S', i, i % 3 === 0 ? 1 : 0)),
      ...Array.from({ length: 42_000 }, (_, i) => line('N', i)),
    ];
    const worker = await start();
    const feedId = await queue(SELLER, feedLines);

    // the stock is written batch by batch while the feed is read (status validating), in the
    // transaction that ends it (applying)
    await waitUntil(
      async () => (await applyWriting()) && (await findFeed(db(), feedId))!.lines >= 20_000,
      'the worker writing the feed into the stock',
      120_000,
    );
    await worker.kill();

    // killed mid-apply: the feed still says so, and none of it is visible or owed to the index
    expect(['validating', 'applying']).toContain((await findFeed(db(), feedId))?.status);
    expectSameStock(await stock(SELLER), before);
    expect(await owedToIndex()).toBe(0);

    await start();
    const status = await expectWholeOrNothing(SELLER, feedId, feedLines, before, {
      created: 42_000,
      updated: 6_000,
      unchanged: 12_000,
      removed: 2_000,
    });
    // taken over from its chunks and applied: the designed end
    expect(status).toBe('done');
  });

  it('killed while validating: nothing shows; a new worker validates it again from the start and applies it whole', async () => {
    await stopWorkers();
    await sql`update search_outbox set done_at = now() where done_at is null`.execute(db());
    const before = await stock(OTHER_SELLER);
    expect(before).toHaveLength(HELD);
    // the 20,000 items, every other one with a new price, and 40,000 new ones
    const feedLines = [
      ...Array.from({ length: HELD }, (_, i) => line('S', i, i % 2 === 0 ? 2 : 0)),
      ...Array.from({ length: 40_000 }, (_, i) => line('N', i)),
    ];
    const worker = await start();
    const feedId = await queue(OTHER_SELLER, feedLines);

    await waitFor(
      'the worker half-way through validating the feed',
      () => findFeed(db(), feedId),
      (feed) => feed?.status === 'validating' && feed.lines >= 20_000,
      120_000,
    );
    await worker.kill();

    expect((await findFeed(db(), feedId))?.status).toBe('validating');
    expectSameStock(await stock(OTHER_SELLER), before);
    expect(await owedToIndex()).toBe(0);

    // taken over: validated again from the first line (nothing staged twice), then applied whole
    await start();
    const status = await expectWholeOrNothing(OTHER_SELLER, feedId, feedLines, before, {
      created: 40_000,
      updated: 10_000,
      unchanged: 10_000,
      removed: 0,
    });
    expect(status).toBe('done');
  });

  it('runs at nice 10 (FEEDS_NICE): on a host shared with the API, searches get the CPU first', async () => {
    await stopWorkers();
    const worker = await start();
    expect(getPriority(worker.child.pid!)).toBe(10);
  });
});

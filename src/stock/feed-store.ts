import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import type { FeedStatus } from '../db/schema.js';
import { ServiceError } from '../errors.js';
import type { FeedFormat } from './feed-reader.js';
import { pace } from './pace.js';

/** The body is kept in rows of this size: the upload is never held whole in memory. */
const CHUNK_BYTES = 1024 * 1024;

export interface NewFeed {
  vendorId: string;
  /** who sends it; null: the operator's command */
  accountId: string | null;
  mode: 'full' | 'delta';
  format: FeedFormat;
  gzipped: boolean;
  dryRun: boolean;
  force: boolean;
}

/** A feed as its seller reads it. */
export interface FeedRow {
  id: string;
  vendor_id: string;
  mode: 'full' | 'delta';
  format: FeedFormat;
  gzipped: boolean;
  dry_run: boolean;
  force: boolean;
  status: FeedStatus;
  bytes: string;
  lines: number;
  created: number;
  updated: number;
  unchanged: number;
  removed: number;
  rejected: number;
  warnings: string[];
  reason: string | null;
  reason_code: string | null;
  created_at: Date;
  received_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
}

const FEED_COLUMNS = [
  'id',
  'vendor_id',
  'mode',
  'format',
  'gzipped',
  'dry_run',
  'force',
  'status',
  'bytes',
  'lines',
  'created',
  'updated',
  'unchanged',
  'removed',
  'rejected',
  'warnings',
  'reason',
  'reason_code',
  'created_at',
  'received_at',
  'started_at',
  'finished_at',
] as const;

export const feedTooLarge = (maxBytes: number) =>
  new ServiceError(
    'PAYLOAD_TOO_LARGE',
    `O feed passa do máximo aceite (${Math.round(maxBytes / 1024 / 1024)} MB): divida-o em feeds delta ou comprima-o (gzip).`,
  );

const uploadAborted = () =>
  new ServiceError(
    'REQUEST_ABORTED',
    'O envio foi interrompido antes do fim: nada foi guardado. Envie o feed de novo.',
  );

/** A feed row, receiving its body. */
export async function createFeed(db: Database, feed: NewFeed): Promise<string> {
  const row = await db
    .insertInto('stock_feeds')
    .values({
      vendor_id: feed.vendorId,
      account_id: feed.accountId,
      mode: feed.mode,
      format: feed.format,
      gzipped: feed.gzipped,
      dry_run: feed.dryRun,
      force: feed.force,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Keeps the body of a feed as it arrives, in chunks, then marks it received for a worker. A body
 * past `maxBytes`, or one whose sender went away before its end, leaves no feed behind (nothing
 * is applied). With `maxBytesPerSecond`, the body is read no faster: the sender is held back by
 * TCP's own flow control while the API's searches keep the cores that an upload at a local
 * network's speed would take (its reading, its chunks' writes and the database's storing them).
 */
export async function receiveBody(
  db: Database,
  feedId: string,
  body: Readable,
  limits: { maxBytes: number; maxBytesPerSecond?: number },
): Promise<void> {
  const { maxBytes } = limits;
  const paced = pace(limits.maxBytesPerSecond ?? 0);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let seq = 0;
  let total = 0;
  // what tells a repeat of the seller's last feed (feed-repeat.ts)
  const sha256 = createHash('sha256');
  // A chunk is stored while the next one arrives: one in flight at a time, in order. Its failure
  // is met where it is awaited (the next chunk, or the end), not left unhandled.
  let storing: Promise<unknown> = Promise.resolve();
  const flush = async () => {
    if (pendingBytes === 0) return;
    const data = Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    await storing;
    storing = db.insertInto('stock_feed_chunks').values({ feed_id: feedId, seq: seq++, data }).execute();
    storing.catch(() => undefined);
  };
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw feedTooLarge(maxBytes);
      pending.push(chunk);
      sha256.update(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= CHUNK_BYTES) await flush();
      await paced(total);
    }
    if (body.readableAborted) throw uploadAborted();
    await flush();
    await storing;
  } catch (error) {
    // the chunk in flight settles before the feed (its chunks with it) goes
    await storing.catch(() => undefined);
    await db.deleteFrom('stock_feeds').where('id', '=', feedId).execute();
    // the sender went away: a client's doing, not a dependency's
    const gone = body.readableAborted || (error as { code?: string }).code === 'ECONNRESET';
    throw error instanceof ServiceError || !gone ? error : uploadAborted();
  }
  await db
    .updateTable('stock_feeds')
    .set({ status: 'received', bytes: String(total), received_at: sql`now()`, body_sha256: sha256.digest() })
    .where('id', '=', feedId)
    .execute();
  await sql`select pg_notify('stock_feeds', ${feedId})`.execute(db);
}

/**
 * A worker that no longer holds the feed it was working on: another took it over (its heartbeat
 * went stale) and counted a new attempt. It stops without writing anything of the feed.
 */
export class FeedTakenOver extends Error {
  constructor(readonly feedId: string) {
    super(`feed ${feedId} was taken over by another worker`);
    this.name = 'FeedTakenOver';
  }
}

/** Throws FeedTakenOver unless a write guarded by the attempt changed the feed's row. */
export function assertStillHeld(feedId: string, result: { numAffectedRows?: bigint }): void {
  if (!result.numAffectedRows) throw new FeedTakenOver(feedId);
}

/**
 * A feed's body as it was received, chunk after chunk (one row read at a time). Its chunks must
 * add up to the bytes received: a body found shorter (its chunks removed under the reader) is an
 * error, never a shorter file.
 */
export function feedBody(db: Database, feedId: string, bytes: number): Readable {
  return Readable.from(
    (async function* () {
      let read = 0;
      for (let seq = 0; ; seq++) {
        const chunk = await db
          .selectFrom('stock_feed_chunks')
          .select('data')
          .where('feed_id', '=', feedId)
          .where('seq', '=', seq)
          .executeTakeFirst();
        if (!chunk) break;
        read += chunk.data.length;
        yield chunk.data;
      }
      if (read !== bytes) throw new Error(`feed ${feedId}: ${read} bytes stored of ${bytes} received`);
    })(),
  );
}

export async function findFeed(db: Database, feedId: string): Promise<FeedRow | undefined> {
  return (await db
    .selectFrom('stock_feeds')
    .select(FEED_COLUMNS)
    .where('id', '=', feedId)
    .executeTakeFirst()) as FeedRow | undefined;
}

/** A seller's feeds, newest first. */
export async function feedHistory(
  db: Database,
  vendorId: string,
  page: number,
  perPage: number,
): Promise<{ total: number; feeds: FeedRow[] }> {
  const [count, rows] = await Promise.all([
    db
      .selectFrom('stock_feeds')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('vendor_id', '=', vendorId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('stock_feeds')
      .select(FEED_COLUMNS)
      .where('vendor_id', '=', vendorId)
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
  ]);
  return { total: Number(count.n), feeds: rows as unknown as FeedRow[] };
}

export interface FeedError {
  line: number;
  sku: string | null;
  field: string | null;
  message: string;
}

/** The first rejected lines of a feed. */
export function firstErrors(db: Database, feedId: string, limit: number): Promise<FeedError[]> {
  return db
    .selectFrom('stock_feed_errors')
    .select(['line', 'sku', 'field', 'message'])
    .where('feed_id', '=', feedId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Every rejected line of a feed, in line order (as they were written), a page at a time. */
export async function* allErrors(db: Database, feedId: string): AsyncGenerator<FeedError> {
  for (let after = '0'; ;) {
    const rows = await db
      .selectFrom('stock_feed_errors')
      .select(['id', 'line', 'sku', 'field', 'message'])
      .where('feed_id', '=', feedId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(5_000)
      .execute();
    for (const { id: _id, ...error } of rows) yield error;
    if (rows.length < 5_000) return;
    after = rows[rows.length - 1]!.id;
  }
}

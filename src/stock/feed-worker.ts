import { sql } from 'kysely';
import type pg from 'pg';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import { answerRepeat } from './feed-repeat.js';
import {
  applyLines,
  FeedRemovalRefused,
  finishApply,
  inApplyTransaction,
  stageLines,
  type FeedToApply,
  type FinishFeed,
} from './feed-apply.js';
import { FeedRefusal, readFeed } from './feed-reader.js';
import { assertStillHeld, feedBody, FeedTakenOver, type FeedRow } from './feed-store.js';
import { pace } from './pace.js';
import { readStockLine, skuOfRejected, storableText, type StockLine } from './stock-line.js';

/** Lines read, then staged or applied, per batch. */
export const BATCH_LINES = 5_000;

/** The progress and the rejected lines of a feed applied while it is read: committed this often. */
const REPORT_MS = 1_000;

/** A feed's rejected lines not yet committed, and when they last were. */
interface Report {
  errors: FeedLineError[];
  at: number;
}

/** The reading of a feed lets the event loop turn after this many lines. */
const YIELD_EVERY_LINES = 100;

/** A report's message at most this long (the value it quotes cut short), storable. */
const clip = (message: string) => storableText(message.length > 500 ? `${message.slice(0, 497)}…` : message);

/** A rejected line's problem, as stock_feed_errors keeps it. */
interface FeedLineError {
  line: number;
  sku: string | null;
  field: string | null;
  message: string;
}
/** A feed's worker renews its heartbeat at most this long apart; one silent for `staleSeconds` is taken over. */
const HEARTBEAT_MS = 5_000;

export interface FeedProgress {
  feedId: string;
  lines: number;
  rejected: number;
}

/**
 * Validates and applies received feeds, one at a time per seller, outside the API's requests: in
 * its own process (`npm run feeds`) with PostgreSQL, in the API's in the embedded shape. A feed
 * is read from the chunks it was received in, each line checked (rejected lines recorded with the
 * reason), the valid ones staged and applied in one transaction that also records the outcome —
 * so a worker killed half-way leaves the feed either applied and done, or not applied at all and
 * taken up again (from the start) once its heartbeat is stale. On PostgreSQL that transaction is
 * open while the feed is read, each batch written as soon as it is checked (the database writes
 * one batch while the worker reads the next), and the progress and rejected lines are written
 * beside it, seen as they come; on PGlite's single connection the lines are all staged first, then
 * applied.
 */
export class FeedWorker {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private listener: pg.PoolClient | null = null;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly options: {
      pool?: pg.Pool | null;
      pollMs?: number;
      /** the most a feed may hold once decompressed */
      maxBytes?: number;
      /** a feed whose worker has not renewed its heartbeat for this long is taken over (default 60) */
      staleSeconds?: number;
      onProgress?: (p: FeedProgress) => void;
      /** the most lines a second a feed is read and written at (0 or absent: no limit) */
      maxLinesPerSecond?: number;
      /**
       * the database has one connection (PGlite): nothing can be written beside the apply's
       * transaction, so a feed is staged whole before it is applied
       */
      oneConnection?: boolean;
    } = {},
  ) {}

  async start(): Promise<void> {
    this.running = true;
    if (this.options.pool) {
      try {
        const client = await this.options.pool.connect();
        client.on('notification', () => this.wake?.());
        client.on('error', () => undefined);
        await client.query('LISTEN stock_feeds');
        this.listener = client;
      } catch (error) {
        this.logger.warn({ err: error }, 'feed worker could not LISTEN; polling only');
      }
    }
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    if (this.listener) {
      await this.listener.query('UNLISTEN stock_feeds').catch(() => undefined);
      this.listener.release();
      this.listener = null;
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.processNext();
      } catch (error) {
        this.logger.error({ err: error }, 'feed worker failed; trying again');
      }
      if (!this.running) break;
      if (worked) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs ?? 1_000);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /** Takes the oldest feed waiting (none of its seller's running) and processes it; false when none. */
  async processNext(): Promise<boolean> {
    const claimed = await this.claim(null);
    if (!claimed) return false;
    await this.process(claimed.id, claimed.attempt);
    return true;
  }

  /**
   * Processes this feed (the operator's command), once no other feed of its seller runs: false if
   * it is not waiting (another worker took it, or it is over).
   */
  async processFeed(feedId: string): Promise<boolean> {
    for (;;) {
      const claimed = await this.claim(feedId);
      if (claimed) {
        await this.process(claimed.id, claimed.attempt);
        return true;
      }
      const feed = await this.db
        .selectFrom('stock_feeds')
        .select('status')
        .where('id', '=', feedId)
        .executeTakeFirst();
      if (feed?.status !== 'received') return false;
      await new Promise((resolve) => setTimeout(resolve, this.options.pollMs ?? 1_000));
    }
  }

  /** Marks a waiting feed (this one, or the oldest) as this worker's; undefined when none may start. */
  private async claim(feedId: string | null): Promise<{ id: string; attempt: number } | undefined> {
    await sql`update stock_feeds set status = 'received'
               where status in ('validating', 'applying')
                 and heartbeat_at < now() - make_interval(secs => ${this.options.staleSeconds ?? 60})`.execute(
      this.db,
    );
    try {
      const claimed = await sql<{ id: string; attempt: number }>`
        update stock_feeds f set status = 'validating', started_at = now(), heartbeat_at = now(),
                                 attempt = f.attempt + 1
         where f.id = (select w.id from stock_feeds w
                        where w.status = 'received'
                          and (${feedId}::bigint is null or w.id = ${feedId}::bigint)
                          and not exists (select 1 from stock_feeds r
                                           where r.vendor_id = w.vendor_id and r.status in ('validating', 'applying'))
                        order by w.id limit 1 for update skip locked)
        returning f.id, f.attempt`.execute(this.db);
      return claimed.rows[0];
    } catch (error) {
      // another worker took a feed of the same seller at this instant: this one waits its turn
      if ((error as { code?: string }).code === '23505') return undefined;
      throw error;
    }
  }

  /** Validates and applies one feed (claimed: status validating), while `attempt` is its hold. */
  async process(feedId: string, attempt: number): Promise<void> {
    const heartbeat = setInterval(
      () => {
        void sql`update stock_feeds set heartbeat_at = now() where id = ${feedId} and attempt = ${attempt}`
          .execute(this.db)
          .catch(() => undefined);
      },
      Math.min(HEARTBEAT_MS, ((this.options.staleSeconds ?? 60) * 1000) / 4),
    );
    heartbeat.unref();
    try {
      const feed = (
        await sql<FeedRow & { country_code: string }>`
        select f.*, v.country_code from stock_feeds f join vendors v on v.id = f.vendor_id
         where f.id = ${feedId}`.execute(this.db)
      ).rows[0]!;
      // a feed taken up again starts from its chunks (what the worker before left of it goes)
      for (const table of ['stock_feed_lines', 'stock_feed_errors'] as const) {
        await sql`delete from ${sql.table(table)}
                   where feed_id = ${feedId}
                     and exists (select 1 from stock_feeds where id = ${feedId} and attempt = ${attempt})`.execute(
          this.db,
        );
      }
      const repeated = await answerRepeat(this.db, feed, attempt);
      if (repeated) {
        this.logger.info(
          { feedId, vendorId: feed.vendor_id, sameAs: repeated },
          'stock feed identical to the last one, stock unchanged since: answered from it',
        );
        return;
      }
      const target: FeedToApply = {
        id: feedId,
        vendorId: feed.vendor_id,
        mode: feed.mode,
        dryRun: feed.dry_run,
        force: feed.force,
        country: feed.country_code,
      };
      const finish: FinishFeed = async (trx, counts, warnings, stockAfter) => {
        // not held any more: the whole apply rolls back, and the new holder applies the feed.
        // clock_timestamp: now() is the transaction's start, on PostgreSQL the feed's first line
        const done = await sql`update stock_feeds
                     set status = 'done', created = ${counts.created}, updated = ${counts.updated},
                         unchanged = ${counts.unchanged}, removed = ${counts.removed}, finished_at = clock_timestamp(),
                         stock_after = ${stockAfter},
                         warnings = warnings || ${JSON.stringify(warnings)}::jsonb
                   where id = ${feedId} and attempt = ${attempt}`.execute(trx);
        assertStillHeld(feedId, done);
        await sql`delete from stock_feed_chunks where feed_id = ${feedId}`.execute(trx);
      };
      const { read, applied } = this.options.oneConnection
        ? await this.stageThenApply(feed, attempt, target, finish)
        : await inApplyTransaction(this.db, async (trx) => {
            const read = await this.validate(feed, attempt, { trx, feed: target });
            await this.markApplying(feedId, attempt, read);
            return { read, applied: await finishApply(trx, target, finish) };
          });
      this.logger.info(
        { feedId, vendorId: feed.vendor_id, ...applied.counts, lines: read.lines },
        'stock feed applied',
      );
    } catch (error) {
      if (error instanceof FeedTakenOver) {
        this.logger.warn({ feedId, attempt }, 'stock feed taken over by another worker; this one leaves it');
      } else {
        await this.end(feedId, attempt, error);
      }
    } finally {
      clearInterval(heartbeat);
      // the staged lines are the holder's: a worker that lost the feed leaves them alone
      await sql`delete from stock_feed_lines
                 where feed_id = ${feedId}
                   and exists (select 1 from stock_feeds where id = ${feedId} and attempt = ${attempt})`
        .execute(this.db)
        .catch(() => undefined);
    }
  }

  /** One connection: every line read and staged (committed batch by batch), then applied at once. */
  private async stageThenApply(
    feed: FeedRow & { country_code: string },
    attempt: number,
    target: FeedToApply,
    finish: FinishFeed,
  ) {
    const read = await this.validate(feed, attempt, null);
    await this.markApplying(feed.id, attempt, read);
    const applied = await inApplyTransaction(this.db, async (trx) => {
      await applyLines(trx, target, { staged: true });
      return finishApply(trx, target, finish);
    });
    return { read, applied };
  }

  /** Every line read: what is left is the apply's end (a full feed's removals, the outcome). */
  private async markApplying(
    feedId: string,
    attempt: number,
    read: { lines: number; rejected: number; warnings: string[] },
  ): Promise<void> {
    const applying = await sql`
      update stock_feeds set status = 'applying', lines = ${read.lines}, rejected = ${read.rejected},
                             warnings = ${JSON.stringify(read.warnings)}::jsonb
       where id = ${feedId} and attempt = ${attempt}`.execute(this.db);
    assertStillHeld(feedId, applying);
  }

  /**
   * Reads every line: valid ones staged — and, given the apply's transaction, planned and written
   * into the stock batch by batch — rejected ones recorded; refuses a feed it cannot read.
   */
  private async validate(
    feed: FeedRow & { country_code: string },
    attempt: number,
    apply: { trx: Database; feed: FeedToApply } | null,
  ) {
    const contents = await readFeed(
      feedBody(this.db, feed.id, Number(feed.bytes)),
      feed.format,
      feed.gzipped,
      this.options.maxBytes,
    );
    let staged: { line: number; value: StockLine }[] = [];
    let errors: FeedLineError[] = [];
    let lines = 0;
    let rejected = 0;
    // A batch is written while the next one is read: one in flight at a time, in order. Its
    // rejection is handled where it is awaited (at the next batch or the end), not left unhandled.
    let writing: Promise<void> = Promise.resolve();
    const report: Report = { errors: [], at: 0 };
    const flush = async (last: boolean) => {
      const batch = { staged, errors, lines, rejected };
      staged = [];
      errors = [];
      await writing;
      writing = this.writeBatch(feed.id, attempt, batch, apply, report, last);
      writing.catch(() => undefined);
    };
    const paced = pace(this.options.maxLinesPerSecond ?? 0);
    for await (const record of contents.records) {
      lines += 1;
      // Reading a chunk of the body is synchronous work that only microtasks interrupt: without a
      // turn of the event loop now and then, the answers of the batch being written would wait
      // for the next batch's reading, and the database for each of its statements in turn.
      if (lines % YIELD_EVERY_LINES === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      if ('problem' in record) {
        rejected += 1;
        errors.push({ line: record.line, sku: null, field: null, message: clip(record.problem) });
      } else {
        const read = readStockLine(record.raw, {
          defaultCountry: feed.country_code,
          decimalComma: contents.decimalComma,
          mayRemove: feed.mode === 'delta',
        });
        if ('line' in read) staged.push({ line: record.line, value: read.line });
        else {
          rejected += 1;
          const sku = skuOfRejected(record.raw);
          // a message may quote the value at fault, which a line of a megabyte could fill
          for (const p of read.problems)
            errors.push({ line: record.line, sku, field: p.field, message: clip(p.message) });
        }
      }
      if (staged.length + errors.length >= BATCH_LINES) {
        await flush(false);
        await paced(lines);
      }
    }
    await flush(true);
    await writing;
    const warnings = contents.unknownColumns.size
      ? [storableText(`Colunas desconhecidas, ignoradas: ${[...contents.unknownColumns].join(', ')}.`)]
      : [];
    return { lines, rejected, warnings };
  }

  /**
   * Writes a batch: its valid lines planned and written into the stock in the apply's transaction
   * when one is open, else staged. Its rejected lines and the progress so far are committed beside
   * it (seen while the feed is read) — with each batch when staging, at most every REPORT_MS
   * otherwise (a commit per batch would cost the apply more than the report is worth), and at the
   * last batch, before the apply's end reads them.
   */
  private async writeBatch(
    feedId: string,
    attempt: number,
    batch: {
      staged: { line: number; value: StockLine }[];
      errors: FeedLineError[];
      lines: number;
      rejected: number;
    },
    apply: { trx: Database; feed: FeedToApply } | null,
    report: Report,
    last: boolean,
  ): Promise<void> {
    report.errors.push(...batch.errors);
    if (!apply || last || report.errors.length >= BATCH_LINES || Date.now() - report.at >= REPORT_MS) {
      await this.db.transaction().execute(async (trx) => {
        // the feed's row first, while still held: a takeover waits for this batch, then empties it
        const held = await sql`
          update stock_feeds set lines = ${batch.lines}, rejected = ${batch.rejected}, heartbeat_at = now()
           where id = ${feedId} and attempt = ${attempt}`.execute(trx);
        assertStillHeld(feedId, held);
        if (!apply) await stageLines(trx, feedId, batch.staged);
        if (report.errors.length) {
          await trx
            .insertInto('stock_feed_errors')
            .values(report.errors.map((e) => ({ feed_id: feedId, ...e })))
            .execute();
        }
      });
      report.errors = [];
      report.at = Date.now();
      // what GET /stock/feeds/:id shows while it validates
      this.options.onProgress?.({ feedId, lines: batch.lines, rejected: batch.rejected });
    }
    if (apply && batch.staged.length) await applyLines(apply.trx, apply.feed, { batch: batch.staged });
  }

  /** A feed that could not be applied: refused (its content says why) or failed (our side). */
  private async end(feedId: string, attempt: number, error: unknown): Promise<void> {
    const refused = error instanceof FeedRefusal || error instanceof FeedRemovalRefused;
    if (!refused) this.logger.error({ err: error, feedId }, 'stock feed failed');
    await sql`update stock_feeds
                 set status = ${refused ? 'refused' : 'failed'}, finished_at = now(),
                     reason = ${refused ? storableText((error as Error).message) : 'Erro interno ao aplicar o feed; nada foi alterado. Envie-o de novo.'},
                     reason_code = ${refused ? (error as FeedRefusal).code : 'INTERNAL_ERROR'}
               where id = ${feedId} and attempt = ${attempt}`.execute(this.db);
    await sql`delete from stock_feed_chunks
               where feed_id = ${feedId}
                 and exists (select 1 from stock_feeds where id = ${feedId} and attempt = ${attempt})`.execute(
      this.db,
    );
  }
}

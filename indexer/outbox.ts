import { sql } from 'kysely';
import type { Database } from '../src/db/database.js';
import type { OwedChange } from './index-queue.js';

/**
 * The outbox is PostgreSQL's ledger of what the search index owes: one row per item, written by the
 * stock tables' triggers in the same transaction as the change (sql/0020, 0029, 0031). A row stays
 * owed (done_at null) until the worker has seen OpenSearch acknowledge that item at that version or
 * later; the queue only carries rows to the worker, and whatever it loses is handed out again.
 */

/** An owed row as the relay claims it. */
export interface OwedRow extends OwedChange {
  /** the job it was last handed to; null when never handed out (or changed since) */
  jobId: string | null;
}

/**
 * Turns the outbox triggers on (sql/0020_search_outbox.sql): from now on every stock change is
 * recorded. Called by the indexer and by reindex; the embedded shape never calls it. Turned on
 * again after `npm run indexer:disable`, the changes made meanwhile were never recorded, so it
 * also asks for a full rebuild (indexer/rebuild-requests.ts).
 */
export async function enableOutbox(db: Database): Promise<void> {
  await sql`update search_indexer_state
            set enabled = true,
                enabled_at = coalesce(enabled_at, now()),
                rebuild_requested_at = case when enabled_at is null then rebuild_requested_at else now() end
            where singleton and not enabled`.execute(db);
}

/**
 * Turns the outbox triggers off and drops what was owed, for a deployment that no longer runs an
 * indexer (otherwise every change would pile up unread). Returns the rows dropped.
 */
export async function disableOutbox(db: Database): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('search_indexer_state')
      .set({ enabled: false })
      .where('singleton', '=', true)
      .execute();
    const dropped = await trx.deleteFrom('search_outbox').where('done_at', 'is', null).executeTakeFirst();
    await trx.deleteFrom('search_outbox').execute();
    return Number(dropped.numDeletedRows);
  });
}

/**
 * Claims up to `limit` owed rows whose time has come (new changes, ended leases, refusals due for
 * another try), oldest first, for the job `jobId`, leasing them at once, in one statement: no lock
 * is held while the relay then talks to Redis, so a slow or absent Redis never holds up a stock
 * change. Rows another relay is claiming are skipped. Each row comes back with the job it was
 * handed to before (null if none), which the relay asks the queue about.
 */
export async function claimAvailable(
  db: Database,
  limit: number,
  leaseSeconds: number,
  jobId: string,
): Promise<OwedRow[]> {
  const result = await sql<{ item_id: string; version: string; deleted: boolean; job_id: string | null }>`
    update search_outbox o
       set available_at = now() + make_interval(secs => ${leaseSeconds}), job_id = ${jobId},
           handed_count = o.handed_count + 1
      from (select id, job_id from search_outbox
             where done_at is null and available_at <= now()
             order by available_at, id limit ${limit}
             for update skip locked) claimed
     where o.id = claimed.id
    returning o.item_id, o.version, o.deleted, claimed.job_id`.execute(db);
  return result.rows.map((r) => ({
    itemId: Number(r.item_id),
    version: Number(r.version),
    deleted: r.deleted,
    jobId: r.job_id,
  }));
}

/** These claimed rows stay with the job they were handed to before, which is still in the queue. */
export async function keepWithJob(db: Database, rows: OwedRow[]): Promise<void> {
  const kept = rows.filter((r): r is OwedRow & { jobId: string } => r.jobId !== null);
  if (kept.length === 0) return;
  await sql`
    update search_outbox o set job_id = k.job_id, handed_count = o.handed_count - 1
      from unnest(${kept.map((r) => String(r.itemId))}::bigint[], ${kept.map((r) => r.jobId)}::text[]) as k(item_id, job_id)
     where o.item_id = k.item_id and o.done_at is null`.execute(db);
}

/** The jobs rows wait on now (handed out, lease running), at most `limit`. */
export async function jobsAwaited(db: Database, limit: number): Promise<string[]> {
  const rows = await sql<{ job_id: string }>`
    select distinct job_id from search_outbox
     where done_at is null and job_id is not null and available_at > now()
     limit ${limit}`.execute(db);
  return rows.rows.map((r) => r.job_id);
}

/** The rows waiting on these jobs (gone from the queue, or ended) are available again at once. */
export async function releaseJobs(db: Database, jobIds: string[]): Promise<number> {
  if (jobIds.length === 0) return 0;
  const result = await db
    .updateTable('search_outbox')
    .set({ available_at: sql`now()` })
    .where('done_at', 'is', null)
    .where('job_id', 'in', jobIds)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** These claimed rows could not be handed to the queue: available again at once. */
export async function releaseClaim(db: Database, rows: OwedChange[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .updateTable('search_outbox')
    .set({ available_at: sql`now()` })
    .where('done_at', 'is', null)
    .where(
      'item_id',
      'in',
      rows.map((r) => String(r.itemId)),
    )
    .execute();
}

/** An item acknowledged by the index at a version: its row is settled if it owes no later one. */
export interface Acknowledged {
  itemId: number;
  version: number;
}

/**
 * Settles the rows the index has acknowledged: an item's row is done when the version acknowledged
 * is at least the row's. A row that a newer change raised meanwhile stays owed (the condition is
 * checked again once that change's transaction has ended, so it can never be settled by an older
 * acknowledgement).
 */
export async function confirmDelivered(db: Database, acknowledged: Acknowledged[]): Promise<number> {
  if (acknowledged.length === 0) return 0;
  // rows locked in item order, as the stock's outbox triggers take them (sql/0034): a settlement
  // and a write of many items that meet wait for each other instead of deadlocking. A row locked
  // after a wait is checked again (its version may have been raised meanwhile).
  const result = await sql`
    update search_outbox o set done_at = now(), rejected_reason = null, rejected_at = null
      from (select r.id from search_outbox r
              join unnest(${acknowledged.map((a) => String(a.itemId))}::bigint[],
                          ${acknowledged.map((a) => String(a.version))}::bigint[]) as a(item_id, version)
                on r.item_id = a.item_id
             where r.done_at is null and r.version <= a.version
             order by r.item_id
             for update of r) settled
     where o.id = settled.id`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** A document the cluster refused for its content, at the version that was written. */
export interface Rejection {
  itemId: number;
  version: number;
  deleted: boolean;
  reason: string;
}

/**
 * Documents the cluster refused for their content stay owed, with the reason, and are tried again
 * after `retrySeconds` (the cause may be fixed in the cluster: a mapping, an analyzer) or at once
 * when the item changes. An item with no owed row (a rebuild or a repair wrote it) gets one, so
 * that nothing refused is ever without a trace.
 */
export async function recordRejected(
  db: Database,
  rejections: Rejection[],
  retrySeconds: number,
): Promise<void> {
  if (rejections.length === 0) return;
  await sql`
    insert into search_outbox (item_id, version, deleted, rejected_reason, rejected_at, available_at)
    select item_id, version, deleted, reason, now(), now() + make_interval(secs => ${retrySeconds})
      from unnest(${rejections.map((r) => String(r.itemId))}::bigint[],
                  ${rejections.map((r) => String(r.version))}::bigint[],
                  ${rejections.map((r) => r.deleted)}::boolean[],
                  ${rejections.map((r) => r.reason.slice(0, 1_000))}::text[]) as r(item_id, version, deleted, reason)
    on conflict (item_id) where done_at is null do update
      set rejected_reason = excluded.rejected_reason, rejected_at = excluded.rejected_at,
          available_at = excluded.available_at, job_id = null
      where search_outbox.version <= excluded.version`.execute(db);
}

/**
 * Of these items, those in flight since `since` (the database's clock): a change still owed, or one
 * confirmed at or after that moment. A document read after `since` that differs from its row read
 * later is no drift when either holds: the index was being written for that item meanwhile.
 * Confirmed rows are kept for a while (pruneOutbox), so a moment ago is still known.
 */
export async function inFlightAmong(db: Database, itemIds: number[], since: Date): Promise<Set<number>> {
  if (itemIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('search_outbox')
    .select('item_id')
    .where('item_id', 'in', itemIds.map(String))
    .where((eb) => eb.or([eb('done_at', 'is', null), eb('done_at', '>=', since)]))
    .execute();
  return new Set(rows.map((r) => Number(r.item_id)));
}

/** The database's clock now (the outbox's confirmations are stamped by it). */
export async function databaseNow(db: Database): Promise<Date> {
  const { rows } = await sql<{ now: Date }>`select clock_timestamp() as now`.execute(db);
  return rows[0]!.now;
}

export interface RejectedRow {
  itemId: number;
  version: number;
  reason: string;
  rejectedAt: Date;
}

/** The documents the cluster refuses now, oldest first (index:verify lists them). */
export async function listRejected(
  db: Database,
  limit: number,
): Promise<{ total: number; rows: RejectedRow[] }> {
  const [total, rows] = await Promise.all([
    db
      .selectFrom('search_outbox')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('done_at', 'is', null)
      .where('rejected_reason', 'is not', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('search_outbox')
      .select(['item_id', 'version', 'rejected_reason', 'rejected_at'])
      .where('done_at', 'is', null)
      .where('rejected_reason', 'is not', null)
      .orderBy('rejected_at')
      .limit(limit)
      .execute(),
  ]);
  return {
    total: Number(total.n),
    rows: rows.map((r) => ({
      itemId: Number(r.item_id),
      version: Number(r.version),
      reason: r.rejected_reason!,
      rejectedAt: r.rejected_at!,
    })),
  };
}

/**
 * A rebuild whose heartbeat is older than this is taken for dead (its process stopped): it no
 * longer holds outbox rows back. A live rebuild renews it with every batch it loads.
 */
export const REBUILD_HEARTBEAT_TIMEOUT_SECONDS = 900;

/**
 * Settled rows are kept `keepSeconds` (a rebuild in progress replays those numbered after its
 * mark: indexer/catch-up.ts, and they hold them back as long as its heartbeat lasts), then go.
 */
export async function pruneOutbox(db: Database, keepSeconds: number): Promise<number> {
  const result = await sql`
    delete from search_outbox o
     where o.done_at < now() - make_interval(secs => ${keepSeconds})
       and not exists (select 1 from search_rebuilds r
                        where r.heartbeat_at > now() - make_interval(secs => ${REBUILD_HEARTBEAT_TIMEOUT_SECONDS})
                          and o.change_seq > r.change_mark)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** What the index owes now. */
export interface LedgerStatus {
  /** changes not yet confirmed in the index (handed out or not) */
  owed: number;
  /** of those, handed to the queue and waiting for confirmation */
  handed: number;
  /** of those, refused by the cluster for their content */
  rejected: number;
  /** age of the oldest unconfirmed change, 0 when none */
  oldestSeconds: number;
}

export async function ledgerStatus(db: Database): Promise<LedgerStatus> {
  const result = await sql<{ owed: string; handed: string; rejected: string; oldest: number | null }>`
    select count(*) as owed,
           count(*) filter (where job_id is not null) as handed,
           count(*) filter (where rejected_reason is not null) as rejected,
           extract(epoch from now() - min(created_at))::float8 as oldest
      from search_outbox where done_at is null`.execute(db);
  const row = result.rows[0]!;
  return {
    owed: Number(row.owed),
    handed: Number(row.handed),
    rejected: Number(row.rejected),
    oldestSeconds: Math.max(0, row.oldest ?? 0),
  };
}

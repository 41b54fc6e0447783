import { sql } from 'kysely';
import type { Database } from '../src/db/database.js';

/** A pending change: item X reached version V (deleted: V is the tombstone's version). */
export interface OutboxEntry {
  id: number;
  itemId: number;
  version: number;
  deleted: boolean;
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
 * Turns the outbox triggers off and drops what was pending, for a deployment that no longer runs
 * an indexer (otherwise every change would pile up unread). Returns the rows dropped.
 */
export async function disableOutbox(db: Database): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`update search_indexer_state set enabled = false where singleton`.execute(trx);
    const dropped = await sql<{ n: string }>`
      with gone as (delete from search_outbox where done_at is null returning 1) select count(*) as n from gone`.execute(
      trx,
    );
    await sql`delete from search_outbox`.execute(trx);
    return Number(dropped.rows[0]!.n);
  });
}

/**
 * Claims up to `limit` pending rows in outbox order, hands them to `deliver` and marks them done,
 * all in one transaction: a crash before the commit leaves them pending (delivered again, which
 * the job ids dedupe); rows locked by another relay are skipped.
 */
export async function relayBatch(
  db: Database,
  limit: number,
  deliver: (entries: OutboxEntry[]) => Promise<void>,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await sql<{ id: string; item_id: string; version: string; deleted: boolean }>`
      select id, item_id, version, deleted from search_outbox
      where done_at is null order by id limit ${limit} for update skip locked`.execute(trx);
    if (rows.rows.length === 0) return 0;
    const entries = rows.rows.map((r) => ({
      id: Number(r.id),
      itemId: Number(r.item_id),
      version: Number(r.version),
      deleted: r.deleted,
    }));
    await deliver(entries);
    await sql`update search_outbox set done_at = now() where id = any(${entries.map((e) => String(e.id))}::bigint[])`.execute(
      trx,
    );
    return entries.length;
  });
}

/**
 * A rebuild whose heartbeat is older than this is taken for dead (its process stopped): it no
 * longer holds outbox rows back. A live rebuild renews it with every batch it loads.
 */
export const REBUILD_HEARTBEAT_TIMEOUT_SECONDS = 900;

/**
 * Relayed rows are kept `keepSeconds` for the lag figures, then go, except those a rebuild in
 * progress will replay (numbered after its mark: indexer/catch-up.ts).
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

export interface OutboxLag {
  pending: number;
  /** age of the oldest pending row, 0 when none */
  oldestSeconds: number;
}

export async function outboxLag(db: Database): Promise<OutboxLag> {
  const result = await sql<{ pending: string; oldest: number | null }>`
    select count(*) as pending, extract(epoch from now() - min(created_at))::float8 as oldest
    from search_outbox where done_at is null`.execute(db);
  const row = result.rows[0]!;
  return { pending: Number(row.pending), oldestSeconds: Math.max(0, row.oldest ?? 0) };
}

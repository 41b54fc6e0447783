import { sql } from 'kysely';
import type { Client } from '@opensearch-project/opensearch';
import type { Database } from '../src/db/database.js';
import { readStockDocuments } from '../src/search/stock-documents.js';
import { writeBatch, type WriteOutcome } from './cluster.js';
import { REBUILD_HEARTBEAT_TIMEOUT_SECONDS } from './outbox.js';

/** How often the mark checks whether the writers it waits for are done, and logs that it waits. */
const WAIT_POLL_MS = 50;
const WAIT_LOG_MS = 10_000;

/**
 * The change a rebuild replays from: every stock change numbered above it (search_outbox.change_seq,
 * sql/0029) happened after the rebuild began reading and is written into the new index again.
 *
 * A transaction still open when the mark is taken may hold changes numbered below it that the load
 * could not see yet (it reads committed rows only) and that no replay would cover. A transaction
 * draws its change number after its write gave it a transaction id, so every such transaction is,
 * right after the number is read, a backend of this database holding a transaction id: the mark
 * waits until each of them has ended (the backend is gone or holds another id). Transactions of
 * other databases on the server never write this outbox and are not waited for. (A snapshot's xip
 * list is no such set: it holds only ids below the snapshot's xmax, one past the latest *completed*
 * id, so a writer that began after that one and is still running is not in it.)
 */
export async function takeChangeMark(
  db: Database,
  onWait: (seconds: number, transactions: number) => void = () => undefined,
): Promise<number> {
  const seq = await sql<{ mark: string }>`
    select case when is_called then last_value else 0 end as mark from search_outbox_change_seq`.execute(db);
  const mark = Number(seq.rows[0]!.mark);
  const writers = await sql<{ pid: number; xid: string }>`
    select pid, backend_xid::text as xid from pg_stat_activity
     where datname = current_database() and backend_xid is not null and pid <> pg_backend_pid()`.execute(db);
  let waiting = writers.rows;
  const started = Date.now();
  let logged = started;
  while (waiting.length > 0) {
    const still = await sql<{ pid: number; xid: string }>`
      select pid, backend_xid::text as xid from pg_stat_activity
       where pid = any(${waiting.map((w) => w.pid)}::int[]) and backend_xid is not null`.execute(db);
    const running = new Set(still.rows.map((r) => `${r.pid}:${r.xid}`));
    waiting = waiting.filter((w) => running.has(`${w.pid}:${w.xid}`));
    if (waiting.length === 0) break;
    if (Date.now() - logged >= WAIT_LOG_MS) {
      logged = Date.now();
      onWait(Math.round((logged - started) / 1000), waiting.length);
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
  return mark;
}

/**
 * Writes into `index` every item changed after `mark` (outbox rows, relayed or not): what the load
 * read before the change is replaced, deleted items become tombstones. External versions make the
 * order against the live worker, and a second replay, harmless.
 */
export async function catchUp(
  db: Database,
  client: Client,
  index: string,
  mark: number,
): Promise<WriteOutcome> {
  const rows = await sql<{ item_id: string; version: string }>`
    select item_id, max(version) as version from search_outbox where change_seq > ${mark}
    group by item_id`.execute(db);
  const versions = new Map(rows.rows.map((r) => [Number(r.item_id), Number(r.version)]));
  const documents = await readStockDocuments(db, [...versions.keys()]);
  const present = new Set(documents.map((d) => d.id));
  const deletions = [...versions]
    .filter(([id]) => !present.has(id))
    .map(([id, version]) => ({ id, version }));
  return writeBatch(client, index, { documents, deletions });
}

/**
 * Rebuilds in progress hold back the pruning of the outbox rows they will replay (those after their
 * mark) for as long as they renew their heartbeat.
 */
export const rebuildRegistry = {
  async register(db: Database, index: string, mark: number): Promise<void> {
    await sql`insert into search_rebuilds (index_name, change_mark) values (${index}, ${mark})
              on conflict (index_name) do update
              set change_mark = excluded.change_mark, started_at = now(), heartbeat_at = now()`.execute(db);
  },
  async heartbeat(db: Database, index: string): Promise<void> {
    await sql`update search_rebuilds set heartbeat_at = now() where index_name = ${index}`.execute(db);
  },
  async unregister(db: Database, index: string): Promise<void> {
    await sql`delete from search_rebuilds where index_name = ${index}`.execute(db);
  },
  /** Indices being built now (their rebuild renewed its heartbeat recently). */
  async active(db: Database): Promise<Set<string>> {
    const rows = await sql<{ index_name: string }>`
      select index_name from search_rebuilds
       where heartbeat_at > now() - make_interval(secs => ${REBUILD_HEARTBEAT_TIMEOUT_SECONDS})`.execute(db);
    return new Set(rows.rows.map((r) => r.index_name));
  },
};

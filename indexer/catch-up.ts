import { sql } from 'kysely';
import type { Client } from '@opensearch-project/opensearch';
import type { Database } from '../src/db/database.js';
import { readStockDocuments } from '../src/search/stock-documents.js';
import { writeBatch, type WriteOutcome } from './cluster.js';

/** The highest outbox id now: changes after it happened during a reindex. */
export async function outboxMark(db: Database): Promise<number> {
  const r = await sql<{ id: string | null }>`select max(id) as id from search_outbox`.execute(db);
  return Number(r.rows[0]?.id ?? 0);
}

/**
 * Writes into `index` every item changed after `mark` (outbox rows, done or not): what a reindex
 * read before the change is replaced, deleted items become tombstones. External versions make
 * the order against the live worker irrelevant.
 */
export async function catchUp(
  db: Database,
  client: Client,
  index: string,
  mark: number,
): Promise<WriteOutcome> {
  const rows = await sql<{ item_id: string; version: string }>`
    select item_id, max(version) as version from search_outbox where id > ${mark} group by item_id`.execute(
    db,
  );
  const versions = new Map(rows.rows.map((r) => [Number(r.item_id), Number(r.version)]));
  const documents = await readStockDocuments(db, [...versions.keys()]);
  const present = new Set(documents.map((d) => d.id));
  const deletions = [...versions]
    .filter(([id]) => !present.has(id))
    .map(([id, version]) => ({ id, version }));
  return writeBatch(client, index, { documents, deletions });
}

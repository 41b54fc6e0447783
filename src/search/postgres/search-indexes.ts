import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/**
 * The indexes that only the Postgres engine's searches read. Nothing else does: the feeds, the
 * single-item calls and the indexer find an item by id or by (seller, SKU), the outbox trigger of
 * an equivalence group by xref_group_id; those indexes stay whatever the engine. Where OpenSearch
 * answers the searches, these cost every write to the stock and serve no reader: an operator sets
 * them aside (`npm run db:search-indexes -- drop`) and builds them again, from the definitions kept
 * in search_indexes_set_aside (sql/0038), before going back to the Postgres engine.
 *
 * An index added to stock_items or stock_item_references by a later migration must be named here
 * or in KEPT_INDEXES (a test checks the catalog against both).
 */
export const SEARCH_INDEXES = [
  'stock_items_reference_norm_idx',
  'stock_items_make_price_idx',
  'stock_items_price_idx',
  'stock_items_search_vector_idx',
  'stock_items_part_idx',
  'stock_items_make_model_idx',
  'stock_item_references_norm_idx',
] as const;

/** The stock tables' indexes that every engine needs (identity, the sellers' SKUs, the outbox). */
export const KEPT_INDEXES = [
  'stock_items_pkey',
  'stock_items_vendor_sku_idx',
  'stock_items_xref_group_idx',
  'stock_item_references_pkey',
] as const;

export type SearchIndexState =
  /** built and valid: searches use it */
  | 'built'
  /** dropped by `db:search-indexes -- drop`, its definition kept to build it again */
  | 'set_aside'
  /** present but invalid: a concurrent build that stopped half-way (the next `create` redoes it) */
  | 'invalid'
  /** neither built nor set aside (dropped by hand): `create` cannot know its definition */
  | 'missing';

export interface SearchIndexStatus {
  name: string;
  state: SearchIndexState;
  /** on disk, for a built or invalid index */
  bytes: number | null;
}

interface CatalogRow {
  name: string;
  valid: boolean | null;
  bytes: string | null;
  kept_definition: string | null;
}

async function catalogRows(db: Database): Promise<CatalogRow[]> {
  const { rows } = await sql<CatalogRow>`
    select n.name, ix.indisvalid as valid, pg_relation_size(c.oid)::text as bytes, a.definition as kept_definition
      from unnest(${[...SEARCH_INDEXES]}::text[]) with ordinality as n(name, position)
      left join pg_class c on c.relname = n.name and c.relkind = 'i'
                          and c.relnamespace = current_schema()::regnamespace
      left join pg_index ix on ix.indexrelid = c.oid
      left join search_indexes_set_aside a on a.name = n.name
     order by n.position`.execute(db);
  return rows;
}

export async function searchIndexStatus(db: Database): Promise<SearchIndexStatus[]> {
  return (await catalogRows(db)).map((row) => ({
    name: row.name,
    state:
      row.valid === true
        ? 'built'
        : row.valid === false
          ? 'invalid'
          : row.kept_definition
            ? 'set_aside'
            : 'missing',
    bytes: row.bytes === null ? null : Number(row.bytes),
  }));
}

/** The search indexes the Postgres engine lacks (empty when its searches have all they need). */
export async function missingSearchIndexes(db: Database): Promise<string[]> {
  return (await searchIndexStatus(db)).filter((s) => s.state !== 'built').map((s) => s.name);
}

/**
 * Sets every built search index aside: its definition kept first, then the index dropped
 * CONCURRENTLY (searches and writes go on meanwhile). Stopped half-way, it is run again.
 * Returns the indexes dropped now.
 */
export async function setAsideSearchIndexes(
  db: Database,
  onIndex: (name: string) => void = () => {},
): Promise<string[]> {
  const dropped: string[] = [];
  for (const row of await catalogRows(db)) {
    if (row.valid === null) continue;
    if (row.valid) {
      await sql`
        insert into search_indexes_set_aside (name, definition)
        values (${row.name}, pg_get_indexdef(${row.name}::regclass))
        on conflict (name) do update set definition = excluded.definition, set_aside_at = now()`.execute(db);
    }
    // (an invalid index's definition may not be kept yet only if it was never built by `create`:
    // a migration's own build, which the migration itself redoes; dropping it loses nothing kept)
    onIndex(row.name);
    await sql`drop index concurrently if exists ${sql.id(row.name)}`.execute(db);
    dropped.push(row.name);
  }
  return dropped;
}

/** A build's progress as pg_stat_progress_create_index reports it. */
export interface IndexBuildProgress {
  name: string;
  /** the build's phase, as PostgreSQL names it ('building index: scanning table', …) */
  phase: string;
  done: number;
  total: number;
}

/** How often a build's progress is read from pg_stat_progress_create_index. */
const PROGRESS_INTERVAL_MS = 1_000;

async function readProgress(db: Database, name: string): Promise<IndexBuildProgress | null> {
  const { rows } = await sql<{ phase: string; done: string; total: string }>`
    select phase,
           (case when blocks_total > 0 then blocks_done else tuples_done end)::text as done,
           (case when blocks_total > 0 then blocks_total else tuples_total end)::text as total
      from pg_stat_progress_create_index
     where command = 'CREATE INDEX CONCURRENTLY'
       and relid in ('stock_items'::regclass, 'stock_item_references'::regclass)
     limit 1`.execute(db);
  const row = rows[0];
  return row ? { name, phase: row.phase, done: Number(row.done), total: Number(row.total) } : null;
}

/**
 * Builds every set-aside search index again, CONCURRENTLY (searches and writes go on meanwhile),
 * from its kept definition; an invalid one left by a build that stopped is dropped and rebuilt.
 * `onProgress` hears each build's phase and blocks, about once a second (the pool needs a second
 * connection for it). Returns the indexes built now, and those it cannot build (missing: no kept
 * definition).
 */
export async function buildSearchIndexes(
  db: Database,
  onProgress: (progress: IndexBuildProgress) => void = () => {},
): Promise<{ built: string[]; missing: string[] }> {
  const built: string[] = [];
  const missing: string[] = [];
  for (const row of await catalogRows(db)) {
    if (row.valid === true) {
      await sql`delete from search_indexes_set_aside where name = ${row.name}`.execute(db);
      continue;
    }
    if (!row.kept_definition) {
      missing.push(row.name);
      continue;
    }
    if (row.valid === false) await sql`drop index concurrently if exists ${sql.id(row.name)}`.execute(db);
    const definition = row.kept_definition.replace(
      /^CREATE (UNIQUE )?INDEX /,
      'CREATE $1INDEX CONCURRENTLY ',
    );
    onProgress({ name: row.name, phase: 'waiting', done: 0, total: 0 });
    const timer = setInterval(() => {
      readProgress(db, row.name).then(
        (progress) => progress && onProgress(progress),
        () => {},
      );
    }, PROGRESS_INTERVAL_MS);
    try {
      await sql.raw(definition).execute(db);
    } finally {
      clearInterval(timer);
    }
    await sql`delete from search_indexes_set_aside where name = ${row.name}`.execute(db);
    built.push(row.name);
  }
  return { built, missing };
}

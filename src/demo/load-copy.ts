import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DemoDataset } from './generator.js';
import {
  AFTER_LOAD_SQL,
  ANALYZE_SQL,
  emptySummary,
  PHASE,
  type LoadProgress,
  type LoadSummary,
} from './load-phases.js';

export interface CopyLoadOptions {
  onProgress?: LoadProgress;
  /** empty the stock tables (and restart their ids) in the same transaction before loading */
  truncate?: boolean;
}

type Cell = string | number | boolean | null;

/** One value in COPY text format: backslash escapes, \N for NULL, t/f for booleans. */
function cell(value: Cell): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  return value.replace(/[\\\n\r\t]/g, (ch) =>
    ch === '\\' ? '\\\\' : ch === '\n' ? '\\n' : ch === '\r' ? '\\r' : '\\t',
  );
}

const STOCK_TABLES = [
  'vendors',
  'xref_groups',
  'xref_group_references',
  'stock_items',
  'stock_item_references',
];

/**
 * Into empty tables, building the secondary indexes once at the end is several times faster than
 * maintaining them row by row (the GIN index on the items' words above all). Their definitions are
 * read from the catalog, so indexes added by later migrations are kept too; it all happens in the
 * load's transaction, so a failure restores them.
 */
async function dropSecondaryIndexes(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `select i.indexname as name, i.indexdef as definition
       from pg_indexes i
      where i.schemaname = current_schema() and i.tablename = any($1)
        and not exists (select 1 from pg_constraint c where c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)`,
    [STOCK_TABLES],
  );
  for (const row of rows) await client.query(`DROP INDEX ${client.escapeIdentifier(row.name)}`);
  return rows.map((row) => row.definition);
}

/** Lines are gathered into chunks of about this size: fewer, larger writes to the socket. */
const CHUNK_CHARS = 256 * 1024;

/**
 * Streams rows into `COPY table (columns) FROM STDIN`. Rows are produced lazily, so memory stays
 * bounded by one chunk whatever the row count; `count` is called per row for progress.
 */
async function copyRows<R>(
  client: pg.PoolClient,
  table: string,
  columns: readonly (keyof R & string)[],
  rows: Iterable<R>,
  count: (n: number) => void,
): Promise<void> {
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  function* chunks(): Generator<string> {
    let chunk = '';
    let n = 0;
    for (const row of rows) {
      let line = '';
      for (let c = 0; c < columns.length; c++) {
        if (c) line += '\t';
        line += cell(row[columns[c]!] as Cell);
      }
      chunk += line + '\n';
      n++;
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        count(n);
        chunk = '';
        n = 0;
      }
    }
    if (chunk) {
      yield chunk;
      count(n);
    }
  }
  await pipeline(Readable.from(chunks(), { objectMode: false }), stream);
}

/**
 * Loads a dataset into PostgreSQL through streaming COPY, every table in one transaction (a
 * failure leaves the database as it was). Item references need the items first (foreign key),
 * so the items are generated twice: once per table, instead of holding them.
 */
export async function loadWithCopy(
  pool: pg.Pool,
  dataset: DemoDataset,
  options: CopyLoadOptions = {},
): Promise<LoadSummary> {
  const progress = options.onProgress ?? (() => {});
  const started = performance.now();
  const summary = emptySummary();
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    if (options.truncate) {
      await client.query(
        'TRUNCATE stock_feed_lines, stock_feed_chunks, stock_feed_errors, stock_feeds, stock_item_references, stock_items, ' +
          'xref_group_references, xref_groups RESTART IDENTITY',
      );
      // not TRUNCATE: API keys name their seller, and only the keys of the sellers removed may go
      // with them (on delete cascade), never the accounts' search keys
      await client.query('DELETE FROM vendors');
    }
    const { rows } = await client.query<{ empty: boolean }>(
      'SELECT NOT EXISTS (SELECT 1 FROM stock_items) AS empty',
    );
    const indexes = rows[0]?.empty ? await dropSecondaryIndexes(client) : [];

    const vendors = dataset.options.vendors;
    progress(PHASE.vendors, 0, vendors);
    await copyRows(
      client,
      'vendors',
      ['id', 'name', 'country_code', 'city', 'rating'],
      dataset.vendors(),
      (n) => progress(PHASE.vendors, (summary.vendors += n), vendors),
    );

    // Groups and their references stream through two COPYs, each pass recomputing the products;
    // the bar counts products twice (one lap per pass).
    const laps = 2 * dataset.products;
    let product = 0;
    progress(PHASE.groups, 0, laps);
    const groups = (function* () {
      for (const g of dataset.xrefGroups()) {
        product = g.product;
        yield g.group;
      }
    })();
    await copyRows(client, 'xref_groups', ['id', 'label'], groups, (n) => {
      summary.xrefGroups += n;
      progress(PHASE.groups, product, laps);
    });
    const groupReferences = (function* () {
      for (const g of dataset.xrefGroups()) {
        product = dataset.products + g.product;
        yield* g.references;
      }
    })();
    await copyRows(
      client,
      'xref_group_references',
      ['group_id', 'reference', 'brand', 'kind'],
      groupReferences,
      (n) => {
        summary.xrefGroupReferences += n;
        progress(PHASE.groups, product, laps);
      },
    );
    progress(PHASE.groups, laps, laps);

    const items = dataset.options.items;
    progress(PHASE.items, 0, items);
    const itemRows = (function* () {
      for (const i of dataset.items()) yield i.item;
    })();
    await copyRows(
      client,
      'stock_items',
      [
        'id',
        'vendor_id',
        'reference',
        'xref_group_id',
        'part_id',
        'title',
        'description',
        'condition',
        'is_oem',
        'is_aftermarket',
        'price',
        'currency',
        'quantity',
        'vehicle_make',
        'vehicle_model',
        'vehicle_variant',
        'location_country_code',
        'text_language',
      ],
      itemRows,
      (n) => progress(PHASE.items, (summary.items += n), items),
    );

    // Counted in items, not references, so the bar knows its end.
    progress(PHASE.itemReferences, 0, items);
    let itemsDone = 0;
    const itemReferences = (function* () {
      for (const i of dataset.items()) {
        itemsDone++;
        yield* i.references;
      }
    })();
    await copyRows(
      client,
      'stock_item_references',
      ['item_id', 'reference', 'kind', 'brand'],
      itemReferences,
      (n) => {
        summary.itemReferences += n;
        progress(PHASE.itemReferences, itemsDone, items);
      },
    );
    progress(PHASE.itemReferences, items, items);

    if (indexes.length) {
      progress(PHASE.indexes, 0, indexes.length);
      await client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
      for (const [n, definition] of indexes.entries()) {
        await client.query(definition);
        progress(PHASE.indexes, n + 1, indexes.length);
      }
    }
    for (const statement of AFTER_LOAD_SQL) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  await pool.query(ANALYZE_SQL);
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

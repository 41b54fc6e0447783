import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { listingLanguage } from '../search/listing-language.js';
import { stockAfterFeed } from './feed-repeat.js';
import type { StockLine } from './stock-line.js';

/** What a feed changes (or, dry run, would change). */
export interface FeedCounts {
  created: number;
  updated: number;
  unchanged: number;
  removed: number;
}

/** A full feed removing more than this share of the seller's items needs `force`. */
export const REMOVAL_THRESHOLD = 0.3;

/** Why a full feed is not applied: it would wipe too much of the seller's stock. */
export class FeedRemovalRefused extends Error {
  constructor(
    readonly code: 'EMPTY_FULL_FEED' | 'TOO_MANY_REMOVALS',
    message: string,
  ) {
    super(message);
    this.name = 'FeedRemovalRefused';
  }
}

/** A feed's line's columns but its associated references, as SQL reads them. */
const SCALAR_COLUMNS = `line int, sku text, remove bool, reference text, title text, description text,
  condition text, price numeric, currency text, quantity int, is_oem bool, is_aftermarket bool,
  vehicle_make text, vehicle_model text, vehicle_variant text, part_id int, country text`;

/** The columns of a feed's line as SQL reads them (stock_feed_lines, feed_batch). */
const LINE_COLUMNS = sql.raw(`${SCALAR_COLUMNS}, refs text[]`);

/**
 * Between the associated references of a line in a batch's JSON: a control character, which no
 * reference holds (stock-line.ts refuses them). Read by string_to_array: a JSON array read as
 * text[] cost the database more than all the rest of the line.
 */
const REFS_SEPARATOR = '\x1f';

/**
 * A batch of a feed's valid lines as one JSON parameter, read by json_to_recordset: it costs the
 * worker far less than eighteen arrays, each written out element by element as a PostgreSQL
 * array literal.
 */
function linesAsJson(lines: { line: number; value: StockLine }[]): string {
  return JSON.stringify(
    lines.map(({ line, value: l }) => ({
      line,
      sku: l.sku,
      remove: l.remove,
      reference: l.reference,
      title: l.title,
      description: l.description,
      condition: l.condition,
      price: l.price,
      currency: l.currency,
      quantity: l.quantity,
      is_oem: l.isOem,
      is_aftermarket: l.isAftermarket,
      vehicle_make: l.vehicleMake,
      vehicle_model: l.vehicleModel,
      vehicle_variant: l.vehicleVariant,
      part_id: l.partId,
      country: l.country,
      joined_refs: l.references.join(REFS_SEPARATOR),
    })),
  );
}

/** A batch of lines as rows with the columns of LINE_COLUMNS (and `joined_refs`), aliased t. */
const batchRows = (lines: { line: number; value: StockLine }[]) =>
  sql`(select j.*, string_to_array(j.joined_refs, ${REFS_SEPARATOR}) as refs
         from json_to_recordset(${linesAsJson(lines)}::json) as j(${sql.raw(SCALAR_COLUMNS)}, joined_refs text)) t`;

/**
 * Keeps a batch of a feed's valid lines for an apply that comes after the whole feed is read
 * (one connection: see FeedWorker's `oneConnection`).
 */
export async function stageLines(
  db: Database,
  feedId: string,
  lines: { line: number; value: StockLine }[],
): Promise<void> {
  if (lines.length === 0) return;
  await sql`
    insert into stock_feed_lines (feed_id, line, sku, remove, reference, title, description, condition, price,
                                  currency, quantity, is_oem, is_aftermarket, vehicle_make, vehicle_model,
                                  vehicle_variant, part_id, country, refs)
    select ${feedId}::bigint, t.line, t.sku, t.remove, t.reference, t.title, t.description, t.condition, t.price,
           t.currency, t.quantity, t.is_oem, t.is_aftermarket, t.vehicle_make, t.vehicle_model, t.vehicle_variant,
           t.part_id, t.country, t.refs
      from ${batchRows(lines)}`.execute(db);
}

/** Where applyLines takes its lines from: a batch just read, or every line staged before. */
export type FeedLines = { batch: { line: number; value: StockLine }[] } | { staged: true };

/** A feed as its apply needs it. */
export interface FeedToApply {
  id: string;
  vendorId: string;
  mode: 'full' | 'delta';
  dryRun: boolean;
  force: boolean;
  /** the seller's country as the lines took it (for a line without one) */
  country: string;
}

/**
 * Records the outcome in the apply's transaction: applied and done, or neither. `stockAfter`, a
 * full feed's: the stock exactly as it defines it (feed-repeat.ts), or null.
 */
export type FinishFeed = (
  trx: Database,
  counts: FeedCounts,
  warnings: string[],
  stockAfter: string | null,
) => Promise<void>;

/**
 * Memory for a feed's temporary tables (per connection, taken as used): `feed_plan` holds a row
 * per SKU of the feed, a million for a large seller, and with PostgreSQL's default of 8 MB every
 * batch's lookups into it went through the disk.
 */
const TEMP_BUFFERS = '256MB';

/**
 * Runs a feed's apply: a transaction on a connection of its own, opened by beginApply, its
 * temporary tables given room in memory first.
 */
export async function inApplyTransaction<T>(db: Database, apply: (trx: Database) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    // refused on a connection that already held a temporary table: it keeps what it had (a feed
    // worker's own connections had this setting at their first feed)
    await sql`set temp_buffers = ${sql.lit(TEMP_BUFFERS)}`.execute(connection).catch(() => undefined);
    return connection.transaction().execute(async (trx) => {
      await beginApply(trx);
      return apply(trx);
    });
  });
}

/**
 * Opens a feed's apply in its transaction (one for the whole feed: readers see the old stock or
 * the new, never half of it). `feed_plan` keeps, per SKU the feed names, what the feed as a whole
 * does to the item (`counted`, what the counts report) and every line that named it; `feed_batch`
 * holds the batch being applied, each line with what it does to the stock (`action`).
 */
async function beginApply(trx: Database): Promise<void> {
  // every item whose associated references change is itself written (created or updated), which
  // records it for the index: no touch of the item per reference (sql/0034)
  await sql`set local stock.items_written_with_references = on`.execute(trx);
  await sql`
    create temp table feed_plan (
      sku     text primary key,
      item_id bigint,
      version bigint,
      counted text not null,
      lines   integer[] not null,
      named   boolean not null
    ) on commit drop`.execute(trx);
  await sql`
    create temp table feed_batch (${LINE_COLUMNS}, lines integer[], item_id bigint, version bigint, action text,
                                  -- whether the line's title or description differ from its item's (none: true)
                                  text_changed boolean,
                                  -- the language of the title and description, for the lines that write them (tellLanguages)
                                  text_language text,
                                  -- what the created items' references are joined on
                                  primary key (sku))
      on commit drop`.execute(trx);
}

/**
 * Plans and (unless a dry run) writes a batch of a feed's lines, or every staged line at once. A
 * line that changes nothing is not written: no version, no outbox row, nothing to reindex. Two
 * lines with one SKU: the later wins (a feed assembled from parts often repeats an item; refusing
 * the whole feed for it would help no seller), and finishApply warns naming both. When the later
 * comes in a later batch, it meets the item as the earlier one left it; what the counts report is
 * still what the feed as a whole did to the item, compared with the stock before it (an item
 * created then changed: created).
 */
export async function applyLines(trx: Database, feed: FeedToApply, lines: FeedLines): Promise<void> {
  const source =
    'batch' in lines
      ? batchRows(lines.batch)
      : sql`(select * from stock_feed_lines where feed_id = ${feed.id}) t`;
  await sql`truncate feed_batch`.execute(trx);
  // each SKU's last line, planned against the stock as this transaction sees it
  await sql`
    insert into feed_batch
    select s.line, s.sku, s.remove, s.reference, s.title, s.description, s.condition, s.price, s.currency,
           s.quantity, s.is_oem, s.is_aftermarket, s.vehicle_make, s.vehicle_model, s.vehicle_variant, s.part_id,
           s.country, coalesce(s.refs, '{}'), s.lines, i.id, i.version,
           case when s.remove then 'remove'
                when i.id is null then 'create'
                when (i.reference, i.title, i.description, i.condition, i.price, trim(i.currency), i.quantity,
                      i.is_oem, i.is_aftermarket, i.vehicle_make, i.vehicle_model, i.vehicle_variant, i.part_id,
                      i.location_country_code)
                     is distinct from
                     (s.reference, s.title, s.description, s.condition, s.price, s.currency, s.quantity,
                      s.is_oem, s.is_aftermarket, s.vehicle_make, s.vehicle_model, s.vehicle_variant, s.part_id,
                      s.country::char(2))
                  or coalesce((select array_agg(r.reference order by r.reference)
                                 from stock_item_references r where r.item_id = i.id), '{}')
                     is distinct from
                     coalesce((select array_agg(x order by x) from unnest(s.refs) x), '{}')
                then 'update' else 'keep' end,
           (i.title, i.description) is distinct from (s.title, s.description)
      from (select distinct on (t.sku) t.*,
                   array_agg(t.line) over (partition by t.sku order by t.line
                                           rows between unbounded preceding and unbounded following) as lines
              from ${source}
             order by t.sku, t.line desc) s
      -- each SKU looked up on its own (LIMIT keeps the subquery from becoming a join): planned as a
      -- join, with the seller's statistics from before the feed, the lookup read every item this
      -- feed had written so far once per batch
      left join lateral (select * from stock_items x
                          where x.vendor_id = ${feed.vendorId} and x.sku = s.sku limit 1) i on true`.execute(
    trx,
  );
  await sql`
    insert into feed_plan as p (sku, item_id, version, counted, lines, named)
    select sku, item_id, version, case when action = 'remove' and item_id is null then 'none' else action end,
           lines, true
      from feed_batch
    on conflict (sku) do update
       set item_id = excluded.item_id, version = excluded.version, lines = p.lines || excluded.lines,
           counted = case
             -- a dry run writes nothing: the later line meets the stock as it was before the feed
             when ${feed.dryRun} then excluded.counted
             when p.counted = 'create' then case when excluded.counted in ('remove', 'none') then 'none' else 'create' end
             when p.counted in ('update', 'remove')
               then case when excluded.counted in ('remove', 'none') then 'remove' else 'update' end
             else excluded.counted end`.execute(trx);
  if (feed.dryRun) return;

  await tellLanguages(trx);
  await sql`delete from stock_items i using feed_batch b where b.action = 'remove' and i.id = b.item_id`.execute(
    trx,
  );
  await sql`
    update stock_items i
       set reference = b.reference, title = b.title, description = b.description, condition = b.condition,
           price = b.price, currency = b.currency, quantity = b.quantity, is_oem = b.is_oem,
           is_aftermarket = b.is_aftermarket, vehicle_make = b.vehicle_make, vehicle_model = b.vehicle_model,
           vehicle_variant = b.vehicle_variant, part_id = b.part_id, location_country_code = b.country,
           text_language = case when b.text_changed then b.text_language else i.text_language end
      from feed_batch b
     where b.action = 'update' and i.id = b.item_id`.execute(trx);
  // the items created and their associated references, found by the ids the insert returns
  await sql`
    with created as (
      insert into stock_items (vendor_id, sku, reference, title, description, condition, price, currency, quantity,
                               is_oem, is_aftermarket, vehicle_make, vehicle_model, vehicle_variant, part_id,
                               location_country_code, text_language)
      select ${feed.vendorId}, b.sku, b.reference, b.title, b.description, b.condition, b.price, b.currency,
             b.quantity, b.is_oem, b.is_aftermarket, b.vehicle_make, b.vehicle_model, b.vehicle_variant, b.part_id,
             b.country, b.text_language
        from feed_batch b
       where b.action = 'create'
      -- an item created meanwhile by a single-item call: the feed, committing later, holds
      on conflict (vendor_id, sku) do update
         set reference = excluded.reference, title = excluded.title, description = excluded.description,
             condition = excluded.condition, price = excluded.price, currency = excluded.currency,
             quantity = excluded.quantity, is_oem = excluded.is_oem, is_aftermarket = excluded.is_aftermarket,
             vehicle_make = excluded.vehicle_make, vehicle_model = excluded.vehicle_model,
             vehicle_variant = excluded.vehicle_variant, part_id = excluded.part_id,
             location_country_code = excluded.location_country_code, text_language = excluded.text_language
      returning id, sku)
    insert into stock_item_references (item_id, reference)
    select c.id, x from created c
      join feed_batch b on b.sku = c.sku
     cross join lateral unnest(b.refs) x
     where b.refs <> '{}'
    on conflict do nothing`.execute(trx);
  // associated references of the items changed: replaced where they differ
  await sql`
    delete from stock_item_references r using feed_batch b
     where b.action = 'update' and r.item_id = b.item_id and r.reference <> all(b.refs)`.execute(trx);
  await sql`
    insert into stock_item_references (item_id, reference)
    select b.item_id, x from feed_batch b
     cross join lateral unnest(b.refs) x
     where b.action = 'update' and b.refs <> '{}'
    on conflict do nothing`.execute(trx);
}

/**
 * The language of each line the batch creates or whose title or description it changes, told
 * from them (listingLanguage). Only those: a seller's daily full feed changes few of its lines, a
 * delta most often prices and quantities, and telling a language costs more than reading a line.
 * An item whose text stays keeps its language (`text_changed`, set as the batch is planned).
 */
async function tellLanguages(trx: Database): Promise<void> {
  // in pages: every staged line of a feed is one batch on PGlite (FeedWorker's `oneConnection`)
  for (let after = ''; ;) {
    const written = await sql<{ sku: string; title: string; description: string | null }>`
      select sku, title, description from feed_batch
       where action in ('create', 'update') and text_changed and sku > ${after}
       order by sku limit ${LANGUAGE_PAGE}`.execute(trx);
    if (written.rows.length === 0) return;
    after = written.rows[written.rows.length - 1]!.sku;
    const told = written.rows.flatMap((r) => {
      const language = listingLanguage(r.title, r.description ?? '');
      return language === null ? [] : [{ sku: r.sku, language }];
    });
    if (told.length === 0) continue;
    await sql`
      update feed_batch b set text_language = t.language
        from json_to_recordset(${JSON.stringify(told)}::json) as t(sku text, language text)
       where b.sku = t.sku`.execute(trx);
  }
}

const LANGUAGE_PAGE = 10_000;

/** The warning naming every line of a SKU the feed repeats (the later line won). */
async function repeatedSkus(trx: Database): Promise<string[]> {
  const repeated = await sql<{ sku: string; lines: number[] }>`
    select sku, lines from feed_plan where cardinality(lines) > 1 order by lines[1] limit 1000`.execute(trx);
  return repeated.rows.map(
    (r) =>
      `SKU ${r.sku} repetido nas linhas ${r.lines.join(', ')}: vale a linha ${r.lines[r.lines.length - 1]}.`,
  );
}

/**
 * Ends a feed's apply once every line went through applyLines: a full feed removes the seller's
 * items it does not name, except those whose line was rejected (they keep their state); more than
 * REMOVAL_THRESHOLD of them, or an empty feed, is refused unless forced (thrown: the transaction,
 * every write of the feed with it, rolls back). Records the outcome through `finish`.
 */
export async function finishApply(
  trx: Database,
  feed: FeedToApply,
  finish: FinishFeed,
): Promise<{ counts: FeedCounts; warnings: string[] }> {
  // a temporary table has no statistics until it is analyzed: without them, the joins below over
  // a million planned SKUs may be planned as if there were a handful
  await sql`analyze feed_plan`.execute(trx);
  if (feed.mode === 'full') {
    // the seller's items the file does not name, but for those whose line was rejected
    await sql`
      insert into feed_plan (sku, item_id, version, counted, lines, named)
      select i.sku, i.id, i.version, 'remove', '{}', false from stock_items i
       where i.vendor_id = ${feed.vendorId}
         and not exists (select 1 from feed_plan p where p.sku = i.sku)
         and not exists (select 1 from stock_feed_errors e where e.feed_id = ${feed.id} and e.sku = i.sku)`.execute(
      trx,
    );
  }
  const tally = await sql<{ counted: string; n: string }>`
    select counted, count(*) as n from feed_plan group by counted`.execute(trx);
  const count = (counted: string) => Number(tally.rows.find((r) => r.counted === counted)?.n ?? 0);
  const counts: FeedCounts = {
    created: count('create'),
    updated: count('update'),
    unchanged: count('keep'),
    removed: count('remove'),
  };
  if (feed.mode === 'full' && !feed.force) {
    const holds = Number(
      (
        await sql<{
          n: string;
        }>`select count(*) as n from stock_items where vendor_id = ${feed.vendorId}`.execute(trx)
      ).rows[0]!.n,
    );
    // what the seller held before the feed: a full feed's lines only create or change
    const held = feed.dryRun ? holds : holds - counts.created;
    const named = counts.created + counts.updated + counts.unchanged;
    // the items of rejected lines are kept: what the feed would remove is what it does not name
    if (named === 0 && counts.removed > 0) {
      throw new FeedRemovalRefused(
        'EMPTY_FULL_FEED',
        `O feed completo não tem nenhuma linha válida: aplicá-lo removeria ${counts.removed === held ? `os ${held}` : `${counts.removed} dos ${held}`} artigos do vendedor. Envie-o com force=true se é isso que quer.`,
      );
    }
    if (held > 0 && counts.removed / held > REMOVAL_THRESHOLD) {
      throw new FeedRemovalRefused(
        'TOO_MANY_REMOVALS',
        `O feed completo removeria ${counts.removed} dos ${held} artigos do vendedor (mais de ${REMOVAL_THRESHOLD * 100} %): um ficheiro cortado? Envie-o com force=true se é isso que quer.`,
      );
    }
  }
  const warnings = await repeatedSkus(trx);
  if (feed.dryRun) {
    await finish(trx, counts, warnings, null);
    return { counts, warnings };
  }
  if (feed.mode === 'full') {
    await sql`
      delete from stock_items i using feed_plan p
       where not p.named and i.id = p.item_id`.execute(trx);
  }
  const stockAfter =
    feed.mode === 'full'
      ? await stockAfterFeed(trx, { id: feed.id, vendorId: feed.vendorId, country: feed.country })
      : null;
  await finish(trx, counts, warnings, stockAfter);
  return { counts, warnings };
}

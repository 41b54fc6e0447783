import { sql } from 'kysely';
import type { Database } from '../db/database.js';
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

/**
 * Keeps a batch of a feed's valid lines (line number and values) for the apply: one JSON parameter
 * read by json_to_recordset, which costs the worker far less than eighteen arrays, each written out
 * element by element as a PostgreSQL array literal.
 */
export async function stageLines(
  db: Database,
  feedId: string,
  lines: { line: number; value: StockLine }[],
): Promise<void> {
  if (lines.length === 0) return;
  const rows = lines.map(({ line, value: l }) => ({
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
    refs: l.references,
  }));
  await sql`
    insert into stock_feed_lines (feed_id, line, sku, remove, reference, title, description, condition, price,
                                  currency, quantity, is_oem, is_aftermarket, vehicle_make, vehicle_model,
                                  vehicle_variant, part_id, country, refs)
    select ${feedId}::bigint, t.line, t.sku, t.remove, t.reference, t.title, t.description, t.condition, t.price,
           t.currency, t.quantity, t.is_oem, t.is_aftermarket, t.vehicle_make, t.vehicle_model, t.vehicle_variant,
           t.part_id, t.country, coalesce(t.refs, '{}')
      from json_to_recordset(${JSON.stringify(rows)}::json)
        as t(line int, sku text, remove bool, reference text, title text, description text, condition text,
             price numeric, currency text, quantity int, is_oem bool, is_aftermarket bool, vehicle_make text,
             vehicle_model text, vehicle_variant text, part_id int, country text, refs text[])`.execute(db);
}

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

/** The last line number a feed may have: a range up to it takes every staged line. */
export const LAST_LINE = 2_147_483_647;

/**
 * Opens a feed's apply in its transaction (one for the whole feed: readers see the old stock or
 * the new, never half of it). `feed_plan` keeps, per SKU the feed names, what its line does to the
 * stock (`action`, the write of the line's batch) and what the feed as a whole does to the item
 * (`counted`, what the counts report), with every line that named it.
 */
export async function beginApply(trx: Database): Promise<void> {
  // every item whose associated references change is itself written (created or updated), which
  // records it for the index: no touch of the item per reference (sql/0034)
  await sql`set local stock.items_written_with_references = on`.execute(trx);
  await sql`
    create temp table feed_plan (
      sku     text primary key,
      line    integer,
      item_id bigint,
      version bigint,
      action  text not null,
      counted text not null,
      lines   integer[] not null
    ) on commit drop`.execute(trx);
}

/**
 * Plans and (unless a dry run) writes the staged lines numbered `from`..`to`: a batch while the
 * feed is still read, or all of them at once. A line that changes nothing is not written: no
 * version, no outbox row, nothing to reindex. Two lines with one SKU: the later wins (a feed
 * assembled from parts often repeats an item; refusing the whole feed for it would help no
 * seller), and finishApply warns naming both. When the later comes in a later batch, it meets the
 * item as the earlier one left it; what the counts report is still what the feed as a whole did to
 * the item, compared with the stock before it (an item created then changed: created).
 */
export async function applyLines(
  trx: Database,
  feed: FeedToApply,
  range: { from: number; to: number },
): Promise<void> {
  const staged = sql`stock_feed_lines s join feed_plan p on p.sku = s.sku and p.line = s.line`;
  const inRange = sql`s.feed_id = ${feed.id} and s.line between ${range.from} and ${range.to}`;
  await sql`
    insert into feed_plan as p (sku, line, item_id, version, action, counted, lines)
    select s.sku, s.line, i.id, i.version, a.action,
           case when a.action = 'remove' and i.id is null then 'none' else a.action end, d.lines
      from (select sku, max(line) as line, array_agg(line order by line) as lines
              from stock_feed_lines where feed_id = ${feed.id} and line between ${range.from} and ${range.to}
             group by sku) d
      join stock_feed_lines s on s.feed_id = ${feed.id} and s.sku = d.sku and s.line = d.line
      left join stock_items i on i.vendor_id = ${feed.vendorId} and i.sku = s.sku
     cross join lateral (
       select case when s.remove then 'remove'
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
                   then 'update' else 'keep' end as action) a
    on conflict (sku) do update
       set line = excluded.line, item_id = excluded.item_id, version = excluded.version,
           action = excluded.action, lines = p.lines || excluded.lines,
           counted = case
             -- a dry run writes nothing: the later line meets the stock as it was before the feed
             when ${feed.dryRun} then excluded.counted
             when p.counted = 'create' then case when excluded.action = 'remove' then 'none' else 'create' end
             when p.counted in ('update', 'remove')
               then case when excluded.action = 'remove' then 'remove' else 'update' end
             else excluded.counted end`.execute(trx);
  if (feed.dryRun) return;

  await sql`
    delete from stock_items i using ${staged}
     where ${inRange} and p.action = 'remove' and i.id = p.item_id`.execute(trx);
  await sql`
    update stock_items i
       set reference = s.reference, title = s.title, description = s.description, condition = s.condition,
           price = s.price, currency = s.currency, quantity = s.quantity, is_oem = s.is_oem,
           is_aftermarket = s.is_aftermarket, vehicle_make = s.vehicle_make, vehicle_model = s.vehicle_model,
           vehicle_variant = s.vehicle_variant, part_id = s.part_id, location_country_code = s.country
      from ${staged}
     where ${inRange} and p.action = 'update' and i.id = p.item_id`.execute(trx);
  await sql`
    insert into stock_items (vendor_id, sku, reference, title, description, condition, price, currency, quantity,
                             is_oem, is_aftermarket, vehicle_make, vehicle_model, vehicle_variant, part_id,
                             location_country_code)
    select ${feed.vendorId}, s.sku, s.reference, s.title, s.description, s.condition, s.price, s.currency,
           s.quantity, s.is_oem, s.is_aftermarket, s.vehicle_make, s.vehicle_model, s.vehicle_variant, s.part_id,
           s.country
      from ${staged}
     where ${inRange} and p.action = 'create'
    -- an item created meanwhile by a single-item call: the feed, committing later, holds
    on conflict (vendor_id, sku) do update
       set reference = excluded.reference, title = excluded.title, description = excluded.description,
           condition = excluded.condition, price = excluded.price, currency = excluded.currency,
           quantity = excluded.quantity, is_oem = excluded.is_oem, is_aftermarket = excluded.is_aftermarket,
           vehicle_make = excluded.vehicle_make, vehicle_model = excluded.vehicle_model,
           vehicle_variant = excluded.vehicle_variant, part_id = excluded.part_id,
           location_country_code = excluded.location_country_code`.execute(trx);
  // associated references of the items created or changed: replaced where they differ
  await sql`
    delete from stock_item_references r using ${staged}
     where ${inRange} and p.action = 'update' and r.item_id = p.item_id and r.reference <> all(s.refs)`.execute(
    trx,
  );
  await sql`
    insert into stock_item_references (item_id, reference)
    select i.id, x from ${staged}
      join stock_items i on i.vendor_id = ${feed.vendorId} and i.sku = s.sku
     cross join lateral unnest(s.refs) x
     where ${inRange} and p.action in ('create', 'update')
    on conflict do nothing`.execute(trx);
}

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
  if (feed.mode === 'full') {
    // the seller's items the file does not name, but for those whose line was rejected
    await sql`
      insert into feed_plan (sku, item_id, version, action, counted, lines)
      select i.sku, i.id, i.version, 'remove', 'remove', '{}' from stock_items i
       where i.vendor_id = ${feed.vendorId}
         and not exists (select 1 from stock_feed_lines s where s.feed_id = ${feed.id} and s.sku = i.sku)
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
       where p.line is null and p.action = 'remove' and i.id = p.item_id`.execute(trx);
  }
  const stockAfter =
    feed.mode === 'full'
      ? await stockAfterFeed(trx, { id: feed.id, vendorId: feed.vendorId, country: feed.country })
      : null;
  await finish(trx, counts, warnings, stockAfter);
  return { counts, warnings };
}

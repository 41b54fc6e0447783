import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { assertStillHeld } from './feed-store.js';

/**
 * At the end of a full feed's apply (its transaction, after its writes): the seller's stock
 * fingerprint (sql/0035) when the stock is exactly what the feed defines, else null. Not exactly
 * when a write of another kind landed meanwhile: an item the plan left alone now at another
 * version or gone, an item it wrote gone, an item neither named nor kept for a rejected line, the
 * seller's country changed since the lines took it. One statement, so one snapshot for the checks
 * and the fingerprint, and one pass over the seller's items for both: the items joined to the
 * plan by SKU (each side unique by it), checked row by row, and summed with stock_fingerprint's
 * own parts (sql/0043).
 */
export async function stockAfterFeed(
  trx: Database,
  feed: { id: string; vendorId: string; country: string },
): Promise<string | null> {
  const row = (
    await sql<{ fingerprint: string | null }>`
      select case when coalesce(bool_and(coalesce(
                        case when p.sku is null
                               then exists (select 1 from stock_feed_errors e
                                             where e.feed_id = ${feed.id} and e.sku = i.sku)
                             when p.counted = 'keep' then i.id = p.item_id and i.version = p.version
                             when p.counted in ('create', 'update') then i.id is not null
                             else true end, false)), true)
                   and (select country_code from vendors where id = ${feed.vendorId}) = ${feed.country}
                  then stock_fingerprint_of(count(i.id), sum(stock_item_fingerprint(i.id, i.version)),
                                            ${feed.country})
             end as fingerprint
        from (select id, sku, version from stock_items where vendor_id = ${feed.vendorId}) i
        full join feed_plan p on p.sku = i.sku`.execute(trx)
  ).rows[0];
  return row?.fingerprint ?? null;
}

/**
 * A full feed byte for byte the seller's last feed applied (a full one, left exactly as it
 * defined), the seller's stock untouched since: it names every item exactly as it already is, the
 * same lines rejected again and the same items kept, so it is answered from that feed's outcome —
 * done, everything unchanged, the same rejected lines in its report — without reading it. Returns
 * the earlier feed's id, or null when this one must be read. One transaction: the outcome and the
 * report appear together.
 */
export async function answerRepeat(
  db: Database,
  feed: { id: string; mode: string; dry_run: boolean },
  attempt: number,
): Promise<string | null> {
  if (feed.mode !== 'full' || feed.dry_run) return null;
  return db.transaction().execute(async (trx) => {
    const earlier = (
      await sql<{ id: string }>`
        select e.id from stock_feeds f
          join lateral (select l.* from stock_feeds l
                         where l.vendor_id = f.vendor_id and l.id < f.id and l.status = 'done' and not l.dry_run
                         order by l.id desc limit 1) e on true
         where f.id = ${feed.id} and f.body_sha256 is not null and e.body_sha256 = f.body_sha256
           and e.mode = 'full' and e.format = f.format and e.gzipped = f.gzipped
           and e.stock_after = stock_fingerprint(f.vendor_id)`.execute(trx)
    ).rows[0];
    if (!earlier) return null;
    await sql`
      insert into stock_feed_errors (feed_id, line, sku, field, message)
      select ${feed.id}, line, sku, field, message from stock_feed_errors where feed_id = ${earlier.id}
       order by id`.execute(trx);
    const answered = await sql`
      update stock_feeds f
         set status = 'done', lines = e.lines, rejected = e.rejected, warnings = e.warnings, created = 0,
             updated = 0, removed = 0, unchanged = e.created + e.updated + e.unchanged,
             stock_after = e.stock_after, finished_at = now()
        from stock_feeds e
       where f.id = ${feed.id} and f.attempt = ${attempt} and e.id = ${earlier.id}`.execute(trx);
    assertStillHeld(feed.id, answered);
    await sql`delete from stock_feed_chunks where feed_id = ${feed.id}`.execute(trx);
    return earlier.id;
  });
}

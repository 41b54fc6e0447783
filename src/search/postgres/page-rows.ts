import { sql } from 'kysely';
import type { PageAfter, PageRequest, SortValues, StockHit, StockQuery } from '../engine.js';
import { stockRowColumns, toStockItem, type StockRow } from '../stock-row.js';
import { textRank } from './conditions.js';
import type { Fragment } from './sql-fragments.js';

/** A page's rows: which ids, in which order, and each as the engine port's hit. */

/** Relevance for text (0 otherwise), then price; the id breaks ties so pages never overlap. */
export const PAGE_ORDER = sql`order by x.rank desc, x.price asc, x.id asc`;

/**
 * The page's ids and ranks, cut from `rows` in page order. Only the keys, so a covering index can
 * answer the search without the table; the page's 20-odd rows are read by primary key after.
 */
export const orderedKeys = (rows: Fragment, page: PageRequest): Fragment => sql`
  select m.id, m.rank
  from ${rows} m
  order by m.rank desc, m.price asc, m.id asc
  limit ${page.perPage} offset ${(page.page - 1) * page.perPage}`;

/**
 * The keys of the page after an item (its rank, price and id: PostgresEngine's SortValues), in page
 * order: the rows past it in PAGE_ORDER, however many pages precede it.
 */
export const keysAfter = (rows: Fragment, { after, perPage }: PageAfter): Fragment => {
  const [rank, price, id] = after.values as [number, number, number];
  return sql`
  select m.id, m.rank
  from ${rows} m
  where m.rank < ${rank}::real or (m.rank = ${rank}::real and (m.price, m.id) > (${price}::numeric, ${id}::bigint))
  order by m.rank desc, m.price asc, m.id asc
  limit ${perPage}`;
};

/**
 * For the page's keys (see orderedKeys), the rows (see StockRow) with the reference the query
 * matched, and their rank for PAGE_ORDER.
 */
export function pageQuery(query: StockQuery, keys: Fragment): Fragment {
  const ref = query.reference?.normalized ?? null;
  const matched =
    ref === null
      ? sql`null::text`
      : sql`case when p.reference_norm = ${ref} then p.reference else coalesce(
          (select r.reference from stock_item_references r where r.item_id = p.id and r.reference_norm = ${ref} limit 1),
          (select g.reference from xref_group_references g where g.group_id = p.xref_group_id and g.reference_norm = ${ref} limit 1)
        ) end`;
  return sql`
    select ${stockRowColumns('p', 'v')}, ${matched} as matched, k.rank, ${textRank(query, 'p')} as score
    from (${keys}) k
    join stock_items p on p.id = k.id
    join vendors v on v.id = p.vendor_id`;
}

/** A page row as json_agg writes it. */
export interface PageRow extends StockRow {
  matched: string | null;
  /** what PAGE_ORDER sorts on: the relevance, or the row's place in a known order (KnownQueries) */
  rank: number;
  /** the relevance itself (0 without text) */
  score: number;
}

/** A page row as the engine port's hit. */
export const toHit = (row: PageRow): StockHit => ({ ...toStockItem(row), matchedReference: row.matched });

/** Where a page's last row stands in the search's order: the page after it is read from there. */
export const lastOf = (rows: PageRow[]): SortValues | undefined => {
  const row = rows[rows.length - 1];
  return row && { engine: 'postgres', values: [row.score, Number(row.price), Number(row.id)] };
};

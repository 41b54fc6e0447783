import { sql } from 'kysely';
import { PromiseCache } from '../promise-cache.js';
import type { PriceStats, StockQuery } from '../engine.js';
import { MAX_RESULT_WINDOW } from '../result-window.js';

/** What is kept of a query while it is known: its statistics and, for text, its order of results. */
export interface KnownQuery {
  stats: PriceStats;
  /** a text search's ids in page order, as far as a page may reach (null for other searches) */
  order: IdOrder | null;
}

/** Ids in order, as compact as they fit. */
export type IdOrder = Int32Array | Float64Array;

/**
 * Memory for known queries: what an entry is counted as before its order's ids (at most
 * MAX_RESULT_WINDOW, 40 KB while ids fit in 32 bits), and the whole budget.
 */
const KNOWN_ENTRY_BYTES = 1024;
export const DEFAULT_KNOWN_QUERIES_BYTES = 32 * 1024 * 1024;

/**
 * The queries the engine answered in the last few seconds: their statistics and, for text, their
 * order of results.
 *
 * Statistics aggregate the whole result set, which for a broad search is tens of thousands of
 * rows, while a page is twenty. Integrators page through and repeat popular searches, so a
 * query's statistics are kept for a few seconds; the promise is kept, so concurrent identical
 * searches also share one computation.
 *
 * A text search also keeps the order of its results (ids, as far as a page may reach), from the
 * same statement and snapshot as its statistics. Text is ordered by relevance and no index orders
 * by ts_rank: any page of a broad text search ranks every match, while a page read in a known
 * order is twenty rows by id, each checked against the query as it is read; a page that disagrees
 * with the figures (an item gone or no longer matching) has both computed again. Statistics and
 * order are one entry, so they live, and are replaced, together.
 *
 * The same query written differently (case, accents, reference punctuation) is the same entry.
 */
export class KnownQueries {
  private readonly entries: PromiseCache<KnownQuery>;

  constructor({ ttlMs, maxBytes }: { ttlMs: number; maxBytes: number }) {
    this.entries = new PromiseCache({ ttlMs, maxSize: maxBytes, entrySize: KNOWN_ENTRY_BYTES });
  }

  /** The query's entry, known or still being computed. */
  get(query: StockQuery): Promise<KnownQuery> | undefined {
    return this.entries.get(queryKey(query));
  }

  /**
   * Keeps a computation's statistics and order as the query's entry, counted once they are known
   * at their size (without restarting its time to live); forgotten if it fails. Either only while
   * the entry is still this one.
   */
  remember(query: StockQuery, computed: Promise<KnownQuery>): void {
    this.entries.set(
      queryKey(query),
      computed.then(({ stats, order }) => ({ stats, order })),
      (value) => KNOWN_ENTRY_BYTES + (value.order?.byteLength ?? 0),
    );
  }
}

const queryKey = (query: StockQuery): string => query.key;

/**
 * The ids of `matched` in page order, as far as a page may reach, as one comma-separated text (read
 * back by parseIdOrder).
 */
export const rankedIds = sql`(
  select string_agg(o.id::text, ',' order by o.rank desc, o.price asc, o.id asc)
  from (select m.id, m.rank, m.price from matched m
        order by m.rank desc, m.price asc, m.id asc limit ${MAX_RESULT_WINDOW}) o)`;

/** The ids of a comma-separated list of decimal ids (see rankedIds), without a string per id. */
export function parseIdOrder(text: string | null): IdOrder {
  if (!text) return new Int32Array(0);
  let count = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 44) count++;
  const ids = new Float64Array(count);
  let n = 0;
  let value = 0;
  let max = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 44;
    if (code === 44) {
      ids[n++] = value;
      max = Math.max(max, value);
      value = 0;
    } else value = value * 10 + (code - 48);
  }
  return max <= 0x7fffffff ? Int32Array.from(ids) : ids;
}

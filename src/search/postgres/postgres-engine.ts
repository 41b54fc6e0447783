import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { prepared } from '../../db/prepared-statements.js';
import type {
  DetailedPriceStats,
  FacetRequest,
  FacetValue,
  PageAfter,
  PageAfterResult,
  PageRequest,
  SearchEngine,
  PriceStats,
  SearchResult,
  StockQuery,
} from '../engine.js';
import { MAX_RESULT_WINDOW } from '../result-window.js';
import { promiseCache, type PromiseCache } from '../promise-cache.js';
import { conditions, matching, statementStart } from './conditions.js';
import {
  DEFAULT_KNOWN_QUERIES_BYTES,
  KnownQueries,
  parseIdOrder,
  rankedIds,
  type IdOrder,
  type KnownQuery,
} from './known-queries.js';
import { DEFAULT_MAX_MODELS_MERGED, modelMerge } from './model-merge.js';
import { keysAfter, lastOf, orderedKeys, PAGE_ORDER, pageQuery, toHit, type PageRow } from './page-rows.js';
import { jsonRows, type Fragment } from './sql-fragments.js';
import { detailedStats, FIGURES, groupsQuery, summarize, type Figures } from './statistics.js';

/** A page's rows as hits, and where the last one stands (the page after it is read from there). */
const hitsOf = (rows: PageRow[]): PageAfterResult => {
  const last = lastOf(rows);
  return { items: rows.map(toHit), ...(last ? { last } : {}) };
};

export interface PostgresEngineOptions {
  /** seconds a query's statistics are reused; 0 computes them on every request */
  statsCacheSeconds?: number;
  /**
   * a page of a search by make and model is merged from each model's ordered entries while the
   * model words cover at most this many distinct models (see modelMerge); tests lower it
   */
  maxModelsMerged?: number;
  /** memory for known queries' statistics and text orders (default 32 MB); tests lower it */
  knownQueriesBytes?: number;
}

/**
 * Answers every query from Postgres (or PGlite): the source of truth is also the engine in the
 * embedded shape and whenever SEARCH_ENGINE=postgres.
 */
export class PostgresEngine implements SearchEngine {
  readonly name = 'postgres' as const;
  /** the statistics and text orders of recent queries (null when nothing is kept) */
  private readonly known: KnownQueries | null;
  private readonly facetsCache: PromiseCache<FacetValue[]> | null;
  private readonly maxModelsMerged: number;

  constructor(
    private readonly db: Database,
    options: PostgresEngineOptions = {},
  ) {
    const ttl = (options.statsCacheSeconds ?? 0) * 1000;
    this.known =
      ttl > 0
        ? new KnownQueries({ ttlMs: ttl, maxBytes: options.knownQueriesBytes ?? DEFAULT_KNOWN_QUERIES_BYTES })
        : null;
    this.facetsCache = promiseCache(ttl, { maxEntries: 2_000 });
    this.maxModelsMerged = options.maxModelsMerged ?? DEFAULT_MAX_MODELS_MERGED;
  }

  async search(query: StockQuery, page: PageRequest): Promise<SearchResult> {
    const entry = this.known?.get(query);
    if (entry) {
      // A text page waits for its query's order (even one being computed) rather than rank too;
      // any other page is read beside its statistics.
      const [{ stats }, items] =
        query.text === undefined
          ? await Promise.all([entry, this.page(query, page)])
          : await entry.then(async (known) => [known, await this.knownPage(query, known, page)] as const);
      // Cached figures must never contradict the page in hand (stock changed since): recompute
      // (its entry replaces this one).
      const offset = (page.page - 1) * page.perPage;
      if (items.length === Math.max(0, Math.min(page.perPage, stats.totalResults - offset))) {
        return { total: stats.totalResults, stats, ...hitsOf(items) };
      }
    }
    // The page and its statistics in one statement: one round trip, one snapshot.
    const computed = this.pageWithStats(query, page, { withOrder: this.known !== null });
    this.known?.remember(query, computed);
    const { items, stats } = await computed;
    return { total: stats.totalResults, stats, ...hitsOf(items) };
  }

  async pageAfter(query: StockQuery, page: PageAfter): Promise<PageAfterResult> {
    const result = await sql<{ items: PageRow[] }>`${statementStart(query)}
      select ${jsonRows(pageQuery(query, keysAfter(matching(query), page)), PAGE_ORDER)} as items`.execute(
      this.db,
    );
    return hitsOf(result.rows[0]!.items);
  }

  /** A page of a known query: read in its order when it has one. */
  private knownPage(query: StockQuery, known: KnownQuery, page: PageRequest): Promise<PageRow[]> {
    return known.order ? this.pageInOrder(query, known.order, page) : this.page(query, page);
  }

  /** The detailed statistics, computed on every request (see statistics.ts). */
  stats(query: StockQuery): Promise<DetailedPriceStats> {
    return detailedStats(this.db, query);
  }

  /** Stock-derived lists group the whole stock; they are reused like the statistics. */
  facets(request: FacetRequest): Promise<FacetValue[]> {
    const key = JSON.stringify([request.field, request.make ?? null, request.model ?? null]);
    return (
      this.facetsCache?.getOrCompute(key, () => this.computeFacets(request)) ?? this.computeFacets(request)
    );
  }

  private async computeFacets(request: FacetRequest): Promise<FacetValue[]> {
    const column = { make: 'vehicle_make', model: 'vehicle_model', variant: 'vehicle_variant' }[
      request.field
    ];
    const norm = { make: 'make_norm', model: 'model_norm', variant: 'variant_norm' }[request.field];
    const where: Fragment[] = [sql`${sql.ref(`si.${norm}`)} is not null and ${sql.ref(`si.${norm}`)} <> ''`];
    if (request.make !== undefined) where.push(sql`si.make_norm = f_fold(${request.make})`);
    if (request.model !== undefined) where.push(sql`si.model_norm = f_fold(${request.model})`);
    const result = await sql<{ value: string; n: string }>`
      select min(${sql.ref(`si.${column}`)}) as value, count(*) as n
      from stock_items si
      where ${sql.join(where, sql` and `)}
      group by ${sql.ref(`si.${norm}`)}
      order by count(*) desc, 1 asc`.execute(this.db);
    return result.rows.map((r) => ({ value: r.value, count: Number(r.n) }));
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  /** A page alone (its query's statistics are known). */
  private async page(query: StockQuery, page: PageRequest): Promise<PageRow[]> {
    const merge = modelMerge(query, page, this.maxModelsMerged);
    if (merge) {
      // Index seeks whatever the values: one generic plan serves them all, so the statement is
      // prepared and not planned again. When the words cover too many models it answers nothing
      // and says so; the range scan below is then planned for its values, as every other search.
      const merged = await sql<{ items: PageRow[]; over: boolean }>`${prepared}
        with recursive ${merge.models}
        select ${jsonRows(pageQuery(query, merge.keys), PAGE_ORDER)} as items, ${merge.over} as over`.execute(
        this.db,
      );
      if (!merged.rows[0]!.over) return merged.rows[0]!.items;
    }
    const result = await sql<{
      items: PageRow[];
    }>`${statementStart(query)}select ${jsonRows(pageQuery(query, orderedKeys(matching(query), page)), PAGE_ORDER)} as items`.execute(
      this.db,
    );
    return result.rows[0]!.items;
  }

  /**
   * A page of a text search read in its known order (see KnownQueries): its ids cut from the order,
   * their rows kept only if they still match the query. A page past the order is empty when the
   * order holds every result, and read as any other's when the order stops at the window.
   */
  private async pageInOrder(query: StockQuery, order: IdOrder, page: PageRequest): Promise<PageRow[]> {
    const offset = (page.page - 1) * page.perPage;
    if (offset >= order.length) {
      // short of the window, the order holds every result: nothing lies past it
      return order.length < MAX_RESULT_WINDOW ? [] : this.page(query, page);
    }
    const ids = Array.from(order.subarray(offset, offset + page.perPage));
    // The position in the order stands for the rank (the first the highest), so PAGE_ORDER keeps it.
    // Each id is looked up alone (the lateral subquery with offset 0 cannot be flattened): the
    // statement is prepared, and a generic plan for text + make + model otherwise combines bitmaps
    // of the text and make/model indexes, tens of thousands of rows each, to check twenty ids.
    const stillMatching = sql.join([sql`si.id = k.id`, ...conditions(query)], sql` and `);
    const keys = sql`
      select hit.id, (-k.position)::real as rank, hit.price
      from unnest(${ids}::bigint[]) with ordinality k(id, position)
      cross join lateral (select si.id, si.price from stock_items si where ${stillMatching} offset 0) hit`;
    const result = await sql<{ items: PageRow[] }>`${prepared}
      select ${jsonRows(pageQuery(query, keys), PAGE_ORDER)} as items`.execute(this.db);
    return result.rows[0]!.items;
  }

  /**
   * The page and the statistics' grouped rows, in one statement that reads the matching rows once
   * (a broad text search visits a table page per row, so each pass over them is costly).
   * With `withOrder`, a text search also gets the order of its results as far as a page may reach.
   */
  private async pageWithStats(
    query: StockQuery,
    page: PageRequest,
    { withOrder }: { withOrder: boolean },
  ): Promise<{ items: PageRow[]; stats: PriceStats; order: IdOrder | null }> {
    const ranked = withOrder && query.text !== undefined;
    const result = await sql<
      Figures & { items: PageRow[]; ranked_ids: string | null }
    >`${statementStart(query)}
      with matched as materialized ${matching(query)},
           grouped as (${groupsQuery(sql`matched`, { byCountry: false })})
      select ${jsonRows(pageQuery(query, orderedKeys(sql`matched`, page)), PAGE_ORDER)} as items, ${FIGURES},
             ${ranked ? rankedIds : sql`null::text`} as ranked_ids`.execute(this.db);
    const row = result.rows[0]!;
    const stats = summarize(row);
    const order = ranked ? parseIdOrder(row.ranked_ids) : null;
    return { items: row.items, stats, order };
  }
}

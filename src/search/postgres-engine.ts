import { LRUCache } from 'lru-cache';
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.js';
import { prepared } from '../db/prepared-statements.js';
import type { Condition } from '../db/schema.js';
import {
  noResultsStats,
  type DetailedPriceStats,
  type FacetRequest,
  type FacetValue,
  type ItemReference,
  type PageRequest,
  type PriceStats,
  type PriceSummary,
  type SearchEngine,
  type SearchResult,
  type StockHit,
  type StockQuery,
} from './engine.js';
import { HISTOGRAM_BUCKETS, histogramBounds, roundPrice } from './price-math.js';
import { shared } from './shared-computations.js';
import { fold, normalizeReference } from './references.js';
import { MAX_RESULT_WINDOW } from './search-request.js';
import { textQueryTerms, textWords } from './text-query.js';

type Fragment = RawBuilder<unknown>;

/** The WHERE conditions of a query over `stock_items si`. */
function conditions(q: StockQuery): Fragment[] {
  const where: Fragment[] = [];
  if (q.reference !== undefined) {
    const ref = normalizeReference(q.reference);
    // A union of id sets (own, associated, cross-reference group) keeps every branch on an index;
    // an OR of subqueries would make the planner scan the table.
    where.push(sql`si.id in (
      select id from stock_items where reference_norm = ${ref}
      union select item_id from stock_item_references where reference_norm = ${ref}
      union select s.id from stock_items s
        join xref_group_references g on g.group_id = s.xref_group_id
        where g.reference_norm = ${ref})`);
  }
  if (q.vehicleMake !== undefined) where.push(sql`si.make_norm = f_fold(${q.vehicleMake})`);
  if (q.vehicleModel !== undefined) {
    // Whole words from the start: "golf" finds "golf" and "golf vii", not "golfinho", so model_norm
    // is m itself or starts with "m ". The range [m, m || '!') holds exactly those and the strings
    // m + a control character (a space sorts just before '!'); it is what the covering
    // (make_norm, model_norm text_pattern_ops) index seeks. The exact test then runs on the index
    // entries: "is true" keeps the planner from splitting the OR into two bitmap scans, which would
    // visit the table once per row where the index alone answers.
    const model = sql`f_fold(${q.vehicleModel})`;
    where.push(sql`si.model_norm ~>=~ ${model} and si.model_norm ~<~ (${model} || '!')
      and (si.model_norm = ${model} or si.model_norm ~>=~ (${model} || ' ')) is true`);
  }
  if (q.partId !== undefined) where.push(sql`si.part_id = ${q.partId}`);
  if (q.text !== undefined)
    where.push(sql`si.search_vector @@ to_tsquery('simple', f_unaccent(${textQueryTerms(q.text)}))`);
  if (q.condition !== undefined) where.push(sql`si.condition = ${q.condition}`);
  if (q.isOem !== undefined) where.push(sql`si.is_oem = ${q.isOem}`);
  if (q.isAftermarket !== undefined) where.push(sql`si.is_aftermarket = ${q.isAftermarket}`);
  if (q.country !== undefined) where.push(sql`si.location_country_code = ${q.country}`);
  if (q.priceMin !== undefined) where.push(sql`si.price >= ${q.priceMin}`);
  if (q.priceMax !== undefined) where.push(sql`si.price <= ${q.priceMax}`);
  return where;
}

/**
 * What a statement starts with. A search by reference with, at most, the filters that only narrow
 * its rows (condition, OEM/aftermarket, country, price) is kept prepared (planned once per
 * connection, see db/prepared-statements): its rows come from the handful of ids the reference
 * finds, so one generic plan serves every value, and planning was most of its cost. Every other
 * search is planned for its values, because how many rows a make, a model, a part or a word selects
 * decides the plan: a generic plan cost 2–3 times the database CPU of custom plans on the
 * vehicle + price benchmark, and for a reference with a make and model it read the whole model.
 */
const statementStart = (q: StockQuery): Fragment =>
  q.reference !== undefined &&
  q.vehicleMake === undefined &&
  q.vehicleModel === undefined &&
  q.partId === undefined &&
  q.text === undefined
    ? prepared
    : sql``;

const whereClause = (q: StockQuery): Fragment => {
  const where = conditions(q);
  return where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``;
};

/** One condition or country group of the statistics, as json_agg writes it. */
interface GroupRow {
  condition: Condition | null;
  country: string | null;
  n: number;
  lo: number;
  hi: number;
  total: number;
}

/** The grouped figures as a statement returns them (see FIGURES). */
interface Figures {
  groups: GroupRow[];
  /** bigint, as text */
  sellers: string;
}

const toSummary = (rows: GroupRow[]): PriceSummary => {
  let count = 0;
  let sum = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows) {
    count += Number(r.n);
    sum += Number(r.total);
    lo = Math.min(lo, Number(r.lo));
    hi = Math.max(hi, Number(r.hi));
  }
  return { count, priceMin: lo, priceMax: hi, priceAvg: roundPrice(sum / count) };
};

/** The same query written differently (case, accents, reference punctuation) has the same key. */
function queryKey(q: StockQuery): string {
  return JSON.stringify([
    q.reference === undefined ? null : normalizeReference(q.reference),
    q.vehicleMake === undefined ? null : fold(q.vehicleMake),
    q.vehicleModel === undefined ? null : fold(q.vehicleModel),
    q.partId ?? null,
    q.text === undefined ? null : textWords(fold(q.text)).join(' '),
    q.condition ?? null,
    q.isOem ?? null,
    q.isAftermarket ?? null,
    q.country ?? null,
    q.priceMin ?? null,
    q.priceMax ?? null,
  ]);
}

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

const DEFAULT_MAX_MODELS_MERGED = 100;

/**
 * Memory for known queries (see PostgresEngine.known): what an entry is counted as before its
 * order's ids (at most MAX_RESULT_WINDOW, 40 KB while ids fit in 32 bits), and the whole budget.
 */
const KNOWN_ENTRY_BYTES = 1024;
const DEFAULT_KNOWN_QUERIES_BYTES = 32 * 1024 * 1024;

/** What is kept of a query while it is known: its statistics and, for text, its order of results. */
interface KnownQuery {
  stats: PriceStats;
  /** a text search's ids in page order, as far as a page may reach (null for other searches) */
  order: IdOrder | null;
}

/** Ids in order, as compact as they fit. */
type IdOrder = Int32Array | Float64Array;

/** The ids of a comma-separated list of decimal ids (see rankedIds), without a string per id. */
function parseIdOrder(text: string | null): IdOrder {
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

/** A page row as json_agg writes it. */
interface HitRow {
  id: number;
  reference: string;
  matched: string | null;
  title: string;
  description: string;
  part_id: number | null;
  condition: Condition;
  is_oem: boolean;
  is_aftermarket: boolean;
  price: number;
  currency: string;
  vendor_id: number;
  vendor_name: string;
  location_country_code: string;
  vehicle_make: string | null;
  vehicle_model: string | null;
  vehicle_variant: string | null;
  quantity: number;
  updated_at: string;
  refs: ItemReference[];
}

/**
 * Answers every query from Postgres (or PGlite): the source of truth is also the engine in the
 * embedded shape and whenever SEARCH_ENGINE=postgres.
 */
export class PostgresEngine implements SearchEngine {
  readonly name = 'postgres' as const;
  /**
   * Statistics aggregate the whole result set, which for a broad search is tens of thousands of
   * rows, while a page is twenty. Integrators page through and repeat popular searches, so a
   * query's statistics are kept for a few seconds; the promise is cached, so concurrent identical
   * searches also share one computation.
   *
   * A text search also keeps the order of its results (ids, as far as a page may reach), from the
   * same statement and snapshot as its statistics. Text is ordered by relevance and no index orders
   * by ts_rank: any page of a broad text search ranks every match ("travão": 62 k rows, 200 ms),
   * while a page read in a known order is twenty rows by id, each checked against the query as it
   * is read; a page that disagrees with the figures (an item gone or no longer matching) has both
   * computed again. Statistics and order are one entry, so they live, and are replaced, together.
   */
  private readonly known: LRUCache<string, Promise<KnownQuery>> | null;
  private readonly facetsCache: LRUCache<string, Promise<FacetValue[]>> | null;
  private readonly maxModelsMerged: number;

  constructor(
    private readonly db: Database,
    options: PostgresEngineOptions = {},
  ) {
    const ttl = (options.statsCacheSeconds ?? 0) * 1000;
    this.known =
      ttl > 0
        ? new LRUCache({
            maxSize: options.knownQueriesBytes ?? DEFAULT_KNOWN_QUERIES_BYTES,
            sizeCalculation: () => KNOWN_ENTRY_BYTES,
            ttl,
          })
        : null;
    this.facetsCache = ttl > 0 ? new LRUCache({ max: 2_000, ttl }) : null;
    this.maxModelsMerged = options.maxModelsMerged ?? DEFAULT_MAX_MODELS_MERGED;
  }

  async search(query: StockQuery, page: PageRequest): Promise<SearchResult> {
    const key = queryKey(query);
    const entry = this.known?.get(key);
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
        return { total: stats.totalResults, items, stats };
      }
    }
    // The page and its statistics in one statement: one round trip, one snapshot.
    const computed = this.pageWithStats(query, page, { withOrder: this.known !== null });
    if (this.known) this.remember(key, computed);
    const { items, stats } = await computed;
    return { total: stats.totalResults, items, stats };
  }

  /**
   * Keeps a computation's statistics and order as the query's entry, counted once they are known
   * at their size (without restarting its time to live); forgotten if it fails. Either only while
   * the entry is still this one.
   */
  private remember(key: string, computed: Promise<KnownQuery>): void {
    const known = this.known!;
    const entry = computed.then(({ stats, order }) => ({ stats, order }));
    known.set(key, entry);
    entry.then(
      (value) => {
        // lru-cache counts a size again only for a new value: the same, resolved, in a new promise
        if (value.order && known.peek(key) === entry) {
          known.set(key, Promise.resolve(value), {
            size: KNOWN_ENTRY_BYTES + value.order.byteLength,
            noUpdateTTL: true,
          });
        }
      },
      () => {
        if (known.peek(key) === entry) known.delete(key);
      },
    );
  }

  /** A page of a known query: read in its order when it has one. */
  private knownPage(query: StockQuery, known: KnownQuery, page: PageRequest): Promise<StockHit[]> {
    return known.order ? this.pageInOrder(query, known.order, page) : this.page(query, page);
  }

  /**
   * Everything in one statement that reads the matching rows once: grouped figures, quartiles and
   * the histogram all come from the materialized rows (a broad text search visited its rows three
   * times before, once per figure).
   */
  async stats(query: StockQuery): Promise<DetailedPriceStats> {
    const result = await sql<Figures & { quartiles: number[] | null; buckets: BucketRow[] }>`
      ${statementStart(query)}
      with matched as materialized ${matching(query, { ranked: false })},
           grouped as (${groupsQuery(sql`matched`, { byCountry: true })}),
           -- the condition groups partition the rows: their extremes are the whole set's
           bounds as (select min(lo) as lo, max(hi) as hi from grouped where condition is not null)
      select ${FIGURES},
             (select percentile_cont(array[0.25, 0.5, 0.75]) within group (order by price) from matched) as quartiles,
             ${jsonRows(bucketsQuery)} as buckets`.execute(this.db);
    const { groups, quartiles, buckets } = result.rows[0]!;
    const base = summarize(result.rows[0]!);
    if (base.priceMin === null || base.priceMax === null || quartiles === null) {
      return { ...base, priceMedian: null, priceP25: null, priceP75: null, histogram: [], byCountry: {} };
    }
    const byCountry: Record<string, PriceSummary> = {};
    for (const r of groups) if (r.country !== null) byCountry[r.country] = toSummary([r]);
    const [p25, p50, p75] = quartiles.map((v) => roundPrice(Number(v)));
    const bounds = histogramBounds(base.priceMin, base.priceMax);
    const counts = new Map(buckets.map((r) => [Number(r.bucket), Number(r.n)]));
    const histogram =
      bounds.length === 1
        ? [{ ...bounds[0]!, count: base.totalResults }]
        : bounds.map((b, i) => ({ ...b, count: counts.get(i + 1) ?? 0 }));
    return { ...base, priceMedian: p50!, priceP25: p25!, priceP75: p75!, histogram, byCountry };
  }

  /** Stock-derived lists group the whole stock; they are reused like the statistics. */
  facets(request: FacetRequest): Promise<FacetValue[]> {
    const key = JSON.stringify([request.field, request.make ?? null, request.model ?? null]);
    return shared(this.facetsCache, key, () => this.computeFacets(request));
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
  private async page(query: StockQuery, page: PageRequest): Promise<StockHit[]> {
    const merge = modelMerge(query, page, this.maxModelsMerged);
    if (merge) {
      // Index seeks whatever the values: one generic plan serves them all (planning was two thirds
      // of its cost). When the words cover too many models it answers nothing and says so; the
      // range scan below is then planned for its values, as every other such search.
      const merged = await sql<{ items: HitRow[]; over: boolean }>`${prepared}
        with recursive ${merge.models}
        select ${jsonRows(pageQuery(query, merge.keys), PAGE_ORDER)} as items, ${merge.over} as over`.execute(
        this.db,
      );
      if (!merged.rows[0]!.over) return merged.rows[0]!.items.map(toHit);
    }
    const result = await sql<{
      items: HitRow[];
    }>`${statementStart(query)}select ${jsonRows(pageQuery(query, orderedKeys(matching(query), page)), PAGE_ORDER)} as items`.execute(
      this.db,
    );
    return result.rows[0]!.items.map(toHit);
  }

  /**
   * A page of a text search read in its known order (see PostgresEngine.known): its ids cut from the order,
   * their rows kept only if they still match the query. A page past the order is empty when the
   * order holds every result, and read as any other's when the order stops at the window.
   */
  private async pageInOrder(query: StockQuery, order: IdOrder, page: PageRequest): Promise<StockHit[]> {
    const offset = (page.page - 1) * page.perPage;
    if (offset >= order.length) {
      // short of the window, the order holds every result: nothing lies past it
      return order.length < MAX_RESULT_WINDOW ? [] : this.page(query, page);
    }
    const ids = Array.from(order.subarray(offset, offset + page.perPage));
    // The position in the order stands for the rank (the first the highest), so PAGE_ORDER keeps it.
    // Each id is looked up alone (the lateral subquery with offset 0 cannot be flattened): the
    // statement is prepared, and a generic plan for text + make + model otherwise combined bitmaps of
    // the text and make/model indexes, tens of thousands of rows each, to check twenty ids (40 ms).
    const stillMatching = sql.join([sql`si.id = k.id`, ...conditions(query)], sql` and `);
    const keys = sql`
      select hit.id, (-k.position)::real as rank, hit.price
      from unnest(${ids}::bigint[]) with ordinality k(id, position)
      cross join lateral (select si.id, si.price from stock_items si where ${stillMatching} offset 0) hit`;
    const result = await sql<{ items: HitRow[] }>`${prepared}
      select ${jsonRows(pageQuery(query, keys), PAGE_ORDER)} as items`.execute(this.db);
    return result.rows[0]!.items.map(toHit);
  }

  /**
   * The page and the statistics' grouped rows, in one statement that reads the matching rows once
   * (a broad text search visits a table page per row: reading them twice cost half again as much).
   * With `withOrder`, a text search also gets the order of its results as far as a page may reach.
   */
  private async pageWithStats(
    query: StockQuery,
    page: PageRequest,
    { withOrder }: { withOrder: boolean },
  ): Promise<SearchResult & { order: IdOrder | null }> {
    const ranked = withOrder && query.text !== undefined;
    const result = await sql<
      Figures & { items: HitRow[]; ranked_ids: string | null }
    >`${statementStart(query)}
      with matched as materialized ${matching(query)},
           grouped as (${groupsQuery(sql`matched`, { byCountry: false })})
      select ${jsonRows(pageQuery(query, orderedKeys(sql`matched`, page)), PAGE_ORDER)} as items, ${FIGURES},
             ${ranked ? rankedIds : sql`null::text`} as ranked_ids`.execute(this.db);
    const row = result.rows[0]!;
    const stats = summarize(row);
    const order = ranked ? parseIdOrder(row.ranked_ids) : null;
    return { total: stats.totalResults, items: row.items.map(toHit), stats, order };
  }
}

/** The ids of `matched` in page order, as far as a page may reach, as one comma-separated text. */
const rankedIds = sql`(
  select string_agg(o.id::text, ',' order by o.rank desc, o.price asc, o.id asc)
  from (select m.id, m.rank, m.price from matched m
        order by m.rank desc, m.price asc, m.id asc limit ${MAX_RESULT_WINDOW}) o)`;

/** A query's rows as one JSON array (in `order`, when given): the page and statistics travel together. */
const jsonRows = (query: Fragment, order: Fragment = sql``): Fragment =>
  sql`(select coalesce(json_agg(x ${order}), '[]'::json) from (${query}) x)`;

const PAGE_ORDER = sql`order by x.rank desc, x.price asc, x.id asc`;

/**
 * Count, min, max and sum per condition, per country (only the stats endpoint shows them) and per
 * vendor, in one hashed pass over the matching rows; a statement names it `grouped`. Sellers are
 * counted as the vendor groups: no count(distinct ...) sort.
 */
const groupsQuery = (rows: Fragment, { byCountry }: { byCountry: boolean }): Fragment => sql`
  select m.condition, ${byCountry ? sql`m.location_country_code` : sql`null::text`} as country,
         m.vendor_id as vendor, count(*) as n, min(m.price) as lo, max(m.price) as hi, sum(m.price) as total
  from ${rows} m
  group by grouping sets ((m.condition), ${byCountry ? sql`(m.location_country_code), ` : sql``}(m.vendor_id))`;

/**
 * The figures read from `grouped`: its condition and country rows, and the number of sellers. The
 * vendor groups are counted in the database: a broad search has thousands of them, which would
 * otherwise be written as JSON and parsed for one number.
 */
const FIGURES = sql`
  ${jsonRows(sql`select g.condition, g.country, g.n, g.lo, g.hi, g.total from grouped g where g.vendor is null`)} as groups,
  (select count(*) from grouped g where g.vendor is not null) as sellers`;

/** One histogram bucket's count, as json_agg writes it. */
interface BucketRow {
  bucket: number;
  n: number;
}

/**
 * Counts per equal-width price bucket between the matching rows' lowest and highest price, as
 * histogramBounds() draws them (nothing when every price is the same: one bucket holds them all).
 * width_bucket puts the maximum in bucket n+1; least() folds it into the last bucket.
 */
const bucketsQuery = sql`
  select least(width_bucket(m.price, b.lo, b.hi, ${HISTOGRAM_BUCKETS}), ${HISTOGRAM_BUCKETS}) as bucket,
         count(*) as n
  from matched m, bounds b
  where b.hi > b.lo
  group by 1`;

/**
 * The rows a query matches, with what the page order and the statistics read. As a subquery the
 * planner merges it into the statement (only the columns used are computed, an ordered index can
 * still end the page early); as a materialized CTE it is read once for page and statistics.
 */
function matching(query: StockQuery, { ranked = true } = {}): Fragment {
  const rank =
    ranked && query.text !== undefined
      ? sql`ts_rank(si.search_vector, to_tsquery('simple', f_unaccent(${textQueryTerms(query.text)})))`
      : sql`0::real`;
  return sql`(
    select si.id, si.price, si.condition, si.location_country_code, si.vendor_id, ${rank} as rank
    from stock_items si
    ${whereClause(query)})`;
}

/**
 * The page's ids and ranks, cut from `rows` in page order. Only the keys, so a covering index can
 * answer the search without the table; the page's 20-odd rows are read by primary key after.
 */
const orderedKeys = (rows: Fragment, page: PageRequest): Fragment => sql`
  select m.id, m.rank
  from ${rows} m
  order by m.rank desc, m.price asc, m.id asc
  limit ${page.perPage} offset ${(page.page - 1) * page.perPage}`;

/** Filters that only narrow a make + model search's rows: they are checked on each model's entries. */
const NARROWING_FILTERS = new Set<keyof StockQuery>([
  'condition',
  'isOem',
  'isAftermarket',
  'country',
  'priceMin',
  'priceMax',
]);

/** The parts of a merged make + model page statement (see modelMerge). */
interface ModelMerge {
  /** the CTEs `models` (the range's distinct models, in index order) and `many` (too many of them?) */
  models: Fragment;
  /** the page's ids and ranks (none when there are too many models) */
  keys: Fragment;
  /** true when the words cover more than maxModels distinct models */
  over: Fragment;
}

/**
 * How to read the page of a search by make and model (with, at most, the filters that only narrow
 * its rows), or null for any other search. The model words cover a range of models ("golf" is
 * "golf", "golf vi", "golf vii"...); scanning that range and sorting it read every entry to keep
 * twenty (50,000 for "BMW Série": 22 ms). Within one model the make/model index is in page order
 * (price, id), so a loose index scan lists the range's distinct models, one seek each, and each
 * model gives its first offset + per_page entries, one ordered seek each (1 ms). With more than
 * `maxModels` distinct models (many models with few items each, where the seeks would cost more
 * than the scan) it answers nothing and `over` says so.
 */
function modelMerge(query: StockQuery, page: PageRequest, maxModels: number): ModelMerge | null {
  const { vehicleMake, vehicleModel, ...rest } = query;
  const onlyNarrowing = (Object.keys(rest) as (keyof StockQuery)[]).every(
    (field) => rest[field as keyof typeof rest] === undefined || NARROWING_FILTERS.has(field),
  );
  if (vehicleMake === undefined || vehicleModel === undefined || !onlyNarrowing) return null;
  const make = sql`f_fold(${vehicleMake})`;
  const model = sql`f_fold(${vehicleModel})`;
  const filters = conditions(rest).map((c) => sql` and ${c}`);
  // the models after `after` in the range, in index order
  const nextModel = (after: Fragment) => sql`
    select si.model_norm from stock_items si
    where si.make_norm = ${make} and si.model_norm ${after} and si.model_norm ~<~ (${model} || '!')
    order by si.model_norm using ~<~ limit 1`;
  return {
    models: sql`
      models(model, n) as (
        select (${nextModel(sql`~>=~ ${model}`)}), 1
        union all
        select (${nextModel(sql`~>~ models.model`)}), models.n + 1
        from models where models.model is not null and models.n <= ${maxModels}
      ),
      many as (select count(*) > ${maxModels} as over from models where model is not null)`,
    keys: sql`
      select e.id, e.rank
      from models
      cross join lateral (
        select si.id, 0::real as rank, si.price from stock_items si
        where si.make_norm = ${make} and si.model_norm = models.model${sql.join(filters, sql``)}
        order by si.price asc, si.id asc
        limit ${page.page * page.perPage}
      ) e
      -- whole words: the range also holds the model followed by a control character
      where (models.model = ${model} or models.model ~>=~ (${model} || ' ')) and not (select over from many)
      order by e.rank desc, e.price asc, e.id asc
      limit ${page.perPage} offset ${(page.page - 1) * page.perPage}`,
    over: sql`(select over from many)`,
  };
}

/** For the page's keys (see orderedKeys), the rows with the vendor, associated and matched references. */
function pageQuery(query: StockQuery, keys: Fragment): Fragment {
  const ref = query.reference !== undefined ? normalizeReference(query.reference) : null;
  const matched =
    ref === null
      ? sql`null::text`
      : sql`case when p.reference_norm = ${ref} then p.reference else coalesce(
          (select r.reference from stock_item_references r where r.item_id = p.id and r.reference_norm = ${ref} limit 1),
          (select g.reference from xref_group_references g where g.group_id = p.xref_group_id and g.reference_norm = ${ref} limit 1)
        ) end`;
  return sql`
    select p.id, p.reference, ${matched} as matched, p.title, p.description, p.part_id, p.condition,
           p.is_oem, p.is_aftermarket, p.price, p.currency, p.vendor_id, v.name as vendor_name,
           p.location_country_code, p.vehicle_make, p.vehicle_model, p.vehicle_variant, p.quantity,
           p.updated_at, p.rank,
           coalesce((select jsonb_agg(jsonb_build_object('reference', r.reference, 'kind', r.kind, 'brand', r.brand)
                                      order by r.reference)
                       from stock_item_references r where r.item_id = p.id), '[]'::jsonb) as refs
    from (${keys}) k
    join lateral (
      select si.id, si.reference, si.reference_norm, si.xref_group_id, si.title, si.description, si.part_id,
             si.condition, si.is_oem, si.is_aftermarket, si.price, si.currency, si.vendor_id,
             si.location_country_code, si.vehicle_make, si.vehicle_model, si.vehicle_variant, si.quantity,
             si.updated_at, k.rank
      from stock_items si where si.id = k.id
    ) p on true
    join vendors v on v.id = p.vendor_id`;
}

/** A page row (decoded from JSON: numbers as numbers, the timestamp as text) as the engine port's hit. */
function toHit(r: HitRow): StockHit {
  return {
    id: Number(r.id),
    reference: r.reference,
    references: r.refs,
    matchedReference: r.matched,
    title: r.title,
    description: r.description,
    partId: r.part_id,
    condition: r.condition,
    isOem: r.is_oem,
    isAftermarket: r.is_aftermarket,
    price: Number(r.price),
    currency: r.currency.trim(),
    vendorId: Number(r.vendor_id),
    vendorName: r.vendor_name,
    countryCode: r.location_country_code,
    vehicleMake: r.vehicle_make,
    vehicleModel: r.vehicle_model,
    vehicleVariant: r.vehicle_variant,
    quantity: r.quantity,
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

/** The spec's statistics from the grouped figures: the condition groups partition the result set. */
function summarize({ groups, sellers }: Figures): PriceStats {
  const byConditionRows = groups.filter((r) => r.condition !== null);
  if (byConditionRows.length === 0) {
    return noResultsStats();
  }
  const overall = toSummary(byConditionRows);
  const byCondition: PriceStats['byCondition'] = {};
  for (const r of byConditionRows) byCondition[r.condition!] = toSummary([r]);
  return {
    totalResults: overall.count,
    priceMin: overall.priceMin,
    priceMax: overall.priceMax,
    priceAvg: overall.priceAvg,
    totalSellers: Number(sellers),
    byCondition,
  };
}

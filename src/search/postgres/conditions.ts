import { sql } from 'kysely';
import { prepared } from '../../db/prepared-statements.js';
import type { StockQuery } from '../engine.js';
import { textQueryTerms } from '../text-query.js';
import type { Fragment } from './sql-fragments.js';

/**
 * Which rows a query matches: its WHERE conditions over `stock_items si`, the matching rows as a
 * subquery, and whether its statement is kept prepared.
 */

/**
 * The words of a row of `stock_items` (aliased `table`): the expression its GIN index is built
 * over (sql/0041), written alike so that the planner finds the index.
 */
const wordsOf = (table: 'si' | 'p'): Fragment =>
  sql`stock_search_vector(${sql.raw(table)}.title, ${sql.raw(table)}.description)`;

/** The WHERE conditions of a query over `stock_items si`. */
export function conditions(q: StockQuery): Fragment[] {
  const where: Fragment[] = [];
  if (q.reference !== undefined) {
    const ref = q.reference.normalized;
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
    where.push(sql`${wordsOf('si')} @@ to_tsquery('simple', f_unaccent(${textQueryTerms(q.text)}))`);
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
 * finds, so one generic plan serves every value and planning, most of the cost of such a small
 * statement, is done once. Every other search is planned for its values, because how many rows a
 * make, a model, a part or a word selects decides the plan: a generic plan costs several times the
 * database CPU of custom plans for a vehicle search, and for a reference with a make and model it
 * reads the whole model.
 */
export const statementStart = (q: StockQuery): Fragment =>
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

/** The relevance of a row of `stock_items` (aliased `table`) to a text query; 0 without text. */
export const textRank = (query: StockQuery, table: 'si' | 'p'): Fragment =>
  query.text !== undefined
    ? sql`ts_rank(${wordsOf(table)}, to_tsquery('simple', f_unaccent(${textQueryTerms(query.text)})))`
    : sql`0::real`;

/**
 * The rows a query matches, with what the page order and the statistics read. As a subquery the
 * planner merges it into the statement (only the columns used are computed, an ordered index can
 * still end the page early); as a materialized CTE it is read once for page and statistics.
 */
export function matching(query: StockQuery, { ranked = true } = {}): Fragment {
  const rank = ranked ? textRank(query, 'si') : sql`0::real`;
  return sql`(
    select si.id, si.price, si.condition, si.location_country_code, si.vendor_id, ${rank} as rank
    from stock_items si
    ${whereClause(query)})`;
}

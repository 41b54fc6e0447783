import { sql, type RawBuilder } from 'kysely';

/** A piece of a statement, composed into the engine's statements. */
export type Fragment = RawBuilder<unknown>;

/** A query's rows as one JSON array (in `order`, when given): the page and statistics travel together. */
export const jsonRows = (query: Fragment, order: Fragment = sql``): Fragment =>
  sql`(select coalesce(json_agg(x ${order}), '[]'::json) from (${query}) x)`;

import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';

/** Query values sampled from the stock itself, the same for every engine measured in a run. */
export interface QuerySamples {
  items: number;
  references: string[];
  vehicles: { make: string; model: string; p: string }[];
  words: string[];
}

/**
 * Realistic query values: references, make + first model word with their median price, title
 * words. REPEATABLE makes the sample the same on every run over the same data, so engines and runs
 * are compared on the same queries.
 */
export async function sampleQueries(db: Database): Promise<QuerySamples> {
  const total = await sql<{ n: string }>`select count(*) as n from stock_items`.execute(db);
  const references = (
    await sql<{ reference: string }>`
      select reference from stock_items tablesample system (1) repeatable (42) limit 2000`.execute(db)
  ).rows.map((r) => r.reference);
  const vehicles = (
    await sql<{ make: string; model: string; p: string }>`
      select vehicle_make as make, split_part(vehicle_model, ' ', 1) as model,
             percentile_disc(0.5) within group (order by price) as p
        from (select * from stock_items tablesample system (1) repeatable (42)) s
       where vehicle_make is not null and vehicle_model is not null
       group by 1, 2 order by 1, 2 limit 500`.execute(db)
  ).rows;
  const words = (
    await sql<{ w: string }>`
      select distinct lower(split_part(title, ' ', 1)) as w
        from (select title from stock_items tablesample system (0.5) repeatable (42)) s
       where length(split_part(title, ' ', 1)) > 3 order by 1 limit 300`.execute(db)
  ).rows.map((r) => r.w);
  return { items: Number(total.rows[0]!.n), references, vehicles, words };
}

import { sql } from 'kysely';
import type { PageRequest, StockQuery } from '../engine.js';
import { conditions } from './conditions.js';
import type { Fragment } from './sql-fragments.js';

/** Distinct models a make + model page is merged from at most, by default (see modelMerge). */
export const DEFAULT_MAX_MODELS_MERGED = 100;

/** Filters that only narrow a make + model search's rows: they are checked on each model's entries. */
const NARROWING_FILTERS = new Set<keyof StockQuery>([
  'condition',
  'isOem',
  'isAftermarket',
  'country',
  'priceMin',
  'priceMax',
]);

/** What names a query rather than narrows it. */
const IDENTITY = new Set<keyof StockQuery>(['canonical', 'key']);

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
 * "golf", "golf vi", "golf vii"...); scanning that range and sorting it reads every entry of a
 * broad model (tens of thousands) to keep twenty. Within one model the make/model index is in page
 * order (price, id), so a loose index scan lists the range's distinct models, one seek each, and
 * each model gives its first offset + per_page entries, one ordered seek each. With more than
 * `maxModels` distinct models (many models with few items each, where the seeks would cost more
 * than the scan) it answers nothing and `over` says so.
 */
export function modelMerge(query: StockQuery, page: PageRequest, maxModels: number): ModelMerge | null {
  const { vehicleMake, vehicleModel, ...rest } = query;
  const onlyNarrowing = (Object.keys(rest) as (keyof StockQuery)[]).every(
    (field) =>
      IDENTITY.has(field) || rest[field as keyof typeof rest] === undefined || NARROWING_FILTERS.has(field),
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

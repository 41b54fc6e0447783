import { Type } from '@sinclair/typebox';
import { Defaulted } from './json-schema.js';

/**
 * The `page` query parameter of the paged lists (catalogs, credit history). Pages past the end are
 * empty; past a million the request is refused, so the offset computed from it stays an exact
 * integer that PostgreSQL accepts (a page of 1e20 used to reach the database as an out-of-range
 * bigint).
 */
export const PageParameter = Defaulted(
  Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 1,
    description: 'Page, from 1 to 1,000,000; a page past the end is empty.',
  }),
);

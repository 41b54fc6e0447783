import { Type, type Static, type TInteger, type TString } from '@sinclair/typebox';
import { Defaulted } from '../json-schema.js';
import { PageParameter } from '../paging.js';
import type { ListRequest } from './catalog-queries.js';
import { LANGUAGES, type Lang } from './data/languages.js';

const MAX_PER_PAGE = 500;

/** lang, q, page and per_page: the query every catalog list reads. */
const listProperties = {
  lang: Defaulted(
    Type.Unsafe<Lang>({
      type: 'string',
      enum: [...LANGUAGES],
      default: 'pt',
      description: 'The names’ language. Open list: languages may be added.',
    }),
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Only entries whose name holds this text (case and accents ignored).',
    }),
  ),
  page: PageParameter,
  per_page: Defaulted(
    Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, default: 50, description: 'Entries per page.' }),
  ),
};

/** Query of every catalog list but the parts. */
export const ListQuerySchema = Type.Object(listProperties, { additionalProperties: false });

/** Query of GET /data/catalog/parts: a list's, and the part's group and type. */
export const PartsQuerySchema = Type.Object(
  {
    ...listProperties,
    group: Type.Optional(
      Type.String({
        maxLength: 50,
        description: 'Only parts of this group (a code of GET /data/catalog/groups).',
      }),
    ),
    type: Type.Optional(
      Type.String({
        maxLength: 50,
        description: 'Only parts of this type (a code of GET /data/catalog/types).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Either query, as a list reads it (group and type only on the parts). */
export type ListQuery = Static<typeof PartsQuerySchema>;

/** A path parameter that is a catalog id: /data/catalog/vehicle-models/:makeId. */
export const IdParams = <Name extends string>(name: Name, what: string) =>
  Type.Object(
    {
      [name]: Type.Integer({ minimum: 1, maximum: 2147483647, description: `The ${what}’s id.` }),
    } as Record<Name, TInteger>,
    { additionalProperties: false },
  );

/** A path parameter that is a name: /data/catalog/models/:brand. */
export const NameParams = <Name extends string>(name: Name, description: string) =>
  Type.Object(
    { [name]: Type.String({ minLength: 1, maxLength: 100, description }) } as Record<Name, TString>,
    { additionalProperties: false },
  );

/**
 * The request as the lists read it. q's spaces are tidied here, once for every list (in memory or
 * in SQL): trimmed, runs collapsed, and a blank q filters nothing.
 */
export const toListRequest = (query: ListQuery): ListRequest => {
  const q = query.q?.trim().replace(/\s+/g, ' ');
  return { lang: query.lang, page: query.page, perPage: query.per_page, ...(q ? { q } : {}) };
};

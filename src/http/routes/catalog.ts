import { createCatalogCache, type CatalogCache } from '../../catalog/catalog-cache.js';
import { PartsSnapshot } from '../../catalog/parts-snapshot.js';
import { LIST_KINDS, type ListKind } from '../../catalog/catalog-lists.js';
import {
  listCountries,
  listEngines,
  listEntries,
  listMakes,
  listModels,
  listStock,
  listVariants,
  type ListRequest,
  type Page,
} from '../../catalog/catalog-queries.js';
import { LANGUAGES, type Lang } from '../../catalog/data/languages.js';
import type { Services } from '../../services.js';
import { legacyRoute, type AnyRoute } from '../route.js';
import type { JsonSchema } from '../../json-schema.js';
import { PageParameter as PAGE_PARAMETER } from '../../paging.js';

const TAG = 'Catálogos';
/** Static catalogs change only on import: clients and proxies may keep them an hour. */
const STATIC_CACHE_SECONDS = 3600;
/** Lists derived from stock follow the stock. */
const STOCK_CACHE_SECONDS = 60;
const MAX_PER_PAGE = 500;

interface ListQuery {
  lang: Lang;
  q?: string;
  page: number;
  per_page: number;
}

const listQuery = (extra: Record<string, JsonSchema> = {}): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  properties: {
    lang: { type: 'string', enum: [...LANGUAGES], default: 'pt', description: 'Língua dos nomes' },
    q: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: 'Filtra pelo nome (sem distinguir maiúsculas nem acentos)',
    },
    page: PAGE_PARAMETER,
    per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: 50 },
    ...extra,
  },
});

const idParams = (name: string, what: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: [name],
  properties: {
    [name]: { type: 'integer', minimum: 1, maximum: 2147483647, description: `Id numérico ${what}` },
  },
});

const nameParams = (name: string, what: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: [name],
  properties: { [name]: { type: 'string', minLength: 1, maxLength: 100, description: what } },
});

const nullable = (type: string) => ({ type: [type, 'null'] });
const object = (properties: Record<string, unknown>, optional: string[] = []): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
});

const pageSchema = (item: JsonSchema): JsonSchema =>
  object({
    success: { const: true },
    total: { type: 'integer', minimum: 0 },
    page: { type: 'integer', minimum: 1 },
    total_pages: { type: 'integer', minimum: 0 },
    results: { type: 'array', items: item },
  });

const codedItem = object(
  { code: { type: 'string' }, name: { type: 'string' }, native_name: { type: 'string' } },
  ['native_name'],
);
const stockItem = object({ name: { type: 'string' }, items: { type: 'integer', minimum: 1 } });

/**
 * The request as the lists read it. q's spaces are tidied here, once for every list (in memory or
 * in SQL): trimmed, runs collapsed, and a blank q filters nothing.
 */
const toRequest = (query: ListQuery): ListRequest => {
  const q = query.q?.trim().replace(/\s+/g, ' ');
  return { lang: query.lang, page: query.page, perPage: query.per_page, ...(q ? { q } : {}) };
};

const answer = <T>(q: ListQuery, page: Page<T>) => ({
  body: {
    success: true,
    total: page.total,
    page: q.page,
    total_pages: Math.ceil(page.total / q.per_page),
    results: page.results,
  },
});

interface ListRouteSpec<Params> {
  path: string;
  summary: string;
  item: JsonSchema;
  params?: JsonSchema;
  query?: JsonSchema;
  cacheSeconds?: number;
  errors?: number[];
  /** lists with a cache of their own: the stock-derived ones (in the engine) and the parts */
  uncached?: boolean;
  load(query: ListQuery & Record<string, unknown>, params: Params): Promise<Page<unknown>> | Page<unknown>;
}

/** The same request whatever the order of its query parameters. */
const cacheKey = (path: string, query: object, params: unknown) =>
  `${path} ${JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1)))} ${JSON.stringify(params)}`;

/** Every catalog endpoint: public GET, lang/q/page/per_page, the paged envelope, ETag and cache. */
function listRoute<Params = Record<string, never>>(
  cache: CatalogCache,
  spec: ListRouteSpec<Params>,
): AnyRoute {
  return legacyRoute<unknown, ListQuery & Record<string, unknown>, Params, 'public'>({
    method: 'get',
    path: spec.path,
    auth: 'public',
    summary: spec.summary,
    tags: [TAG],
    query: spec.query ?? listQuery(),
    ...(spec.params ? { params: spec.params } : {}),
    cacheSeconds: spec.cacheSeconds ?? STATIC_CACHE_SECONDS,
    responses: { 200: { description: spec.summary, schema: pageSchema(spec.item) } },
    ...(spec.errors ? { errors: spec.errors } : {}),
    async handler({ query, params }) {
      const page = spec.uncached
        ? await spec.load(query, params)
        : await cache(cacheKey(spec.path, query, params), () => spec.load(query, params));
      return answer(query, page);
    },
  });
}

const LIST_SUMMARIES: Record<ListKind, string> = {
  types: 'Tipos de peça',
  groups: 'Grupos de peças',
  locations: 'Localizações de peças',
  sides: 'Lados',
  conditions: 'Estados do stock (os valores aceites por condition na pesquisa)',
  quality: 'Níveis de qualidade',
  packaging: 'Tipos de embalagem',
  labelling: 'Tipos de etiquetagem',
  fuels: 'Combustíveis',
  languages: 'Línguas suportadas (com o nome na própria língua)',
};

/** The 19 catalog endpoints of the spec. */
export function catalogRoutes(services: Services): AnyRoute[] {
  const { db, engine } = services;
  const cache = createCatalogCache();
  const parts = new PartsSnapshot(db);
  return [
    listRoute(cache, {
      path: '/data/catalog/parts',
      summary: 'Catálogo de peças (1 656 peças em seis línguas)',
      query: listQuery({
        group: { type: 'string', maxLength: 50, description: 'Código do grupo (/data/catalog/groups)' },
        type: { type: 'string', maxLength: 50, description: 'Código do tipo (/data/catalog/types)' },
      }),
      item: object({
        id: { type: 'integer' },
        name: { type: 'string' },
        type: { type: 'string' },
        group: { type: 'string' },
        location: nullable('string'),
        side: nullable('string'),
      }),
      // The parts catalog keeps its own in-process copy (parts-snapshot.ts): no page cache on top.
      uncached: true,
      load: (q) =>
        parts.list({
          ...toRequest(q),
          ...(typeof q.group === 'string' ? { group: q.group } : {}),
          ...(typeof q.type === 'string' ? { type: q.type } : {}),
        }),
    }),
    listRoute(cache, {
      path: '/data/catalog/brands',
      summary: 'Marcas de veículo com artigos em stock (e quantos)',
      item: stockItem,
      cacheSeconds: STOCK_CACHE_SECONDS,
      uncached: true,
      load: (q) => listStock(engine, 'make', toRequest(q)),
    }),
    listRoute<{ brand: string }>(cache, {
      path: '/data/catalog/models/:brand',
      summary: 'Modelos de uma marca com artigos em stock',
      params: nameParams(
        'brand',
        'Marca (como em /data/catalog/brands; sem distinguir maiúsculas nem acentos)',
      ),
      item: stockItem,
      cacheSeconds: STOCK_CACHE_SECONDS,
      uncached: true,
      load: (q, p) => listStock(engine, 'model', toRequest(q), { make: p.brand }),
    }),
    listRoute<{ model: string }>(cache, {
      path: '/data/catalog/variants/:model',
      summary: 'Variantes de um modelo com artigos em stock',
      params: nameParams('model', 'Modelo (como em /data/catalog/models/:brand)'),
      item: stockItem,
      cacheSeconds: STOCK_CACHE_SECONDS,
      uncached: true,
      load: (q, p) => listStock(engine, 'variant', toRequest(q), { model: p.model }),
    }),
    listRoute(cache, {
      path: '/data/catalog/vehicle-makes',
      summary: 'Catálogo completo de marcas (1 119)',
      item: object({ id: { type: 'integer' }, name: { type: 'string' }, country_code: nullable('string') }),
      load: (q) => listMakes(db, toRequest(q)),
    }),
    listRoute<{ makeId: number }>(cache, {
      path: '/data/catalog/vehicle-models/:makeId',
      summary: 'Modelos de uma marca do catálogo',
      params: idParams('makeId', 'da marca'),
      errors: [404],
      item: object({
        id: { type: 'integer' },
        make_id: { type: 'integer' },
        name: { type: 'string' },
        year_from: nullable('integer'),
        year_to: nullable('integer'),
      }),
      load: (q, p) => listModels(db, p.makeId, toRequest(q)),
    }),
    listRoute<{ modelId: number }>(cache, {
      path: '/data/catalog/vehicle-variants/:modelId',
      summary: 'Variantes de um modelo, com especificações técnicas',
      params: idParams('modelId', 'do modelo'),
      errors: [404],
      item: object({
        id: { type: 'integer' },
        model_id: { type: 'integer' },
        name: { type: 'string' },
        year_from: nullable('integer'),
        year_to: nullable('integer'),
        body_type: nullable('string'),
        fuel: nullable('string'),
        power_kw: nullable('integer'),
        power_hp: nullable('integer'),
        displacement_cc: nullable('integer'),
        engine_codes: { type: 'array', items: { type: 'string' } },
      }),
      load: (q, p) => listVariants(db, p.modelId, toRequest(q)),
    }),
    listRoute<{ variantId: number }>(cache, {
      path: '/data/catalog/vehicle-engines/:variantId',
      summary: 'Motores de uma variante',
      params: idParams('variantId', 'da variante'),
      errors: [404],
      item: object({
        id: { type: 'integer' },
        variant_id: { type: 'integer' },
        code: { type: 'string' },
        fuel: nullable('string'),
        displacement_cc: nullable('integer'),
        power_kw: nullable('integer'),
        power_hp: nullable('integer'),
        cylinders: nullable('integer'),
      }),
      load: (q, p) => listEngines(db, p.variantId, toRequest(q)),
    }),
    ...LIST_KINDS.map((kind) =>
      listRoute(cache, {
        path: `/data/catalog/${kind}`,
        summary: LIST_SUMMARIES[kind],
        item: codedItem,
        load: (q) => listEntries(db, kind, toRequest(q)),
      }),
    ),
    listRoute(cache, {
      path: '/data/catalog/countries',
      summary: 'Países (ISO 3166-1, nomes em seis línguas)',
      item: object({ code: { type: 'string' }, name: { type: 'string' } }),
      load: (q) => listCountries(toRequest(q)),
    }),
  ];
}

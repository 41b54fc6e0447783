import type { Static, TSchema } from '@sinclair/typebox';
import { route, type AnyRoute } from '../http/route.js';
import type { JsonSchema } from '../json-schema.js';
import { LIST_KINDS, type ListKind } from './catalog-lists.js';
import type { Page } from './catalog-queries.js';
import type { CatalogService } from './catalog-service.js';
import {
  IdParams,
  ListQuerySchema,
  NameParams,
  PartsQuerySchema,
  toListRequest,
  type ListQuery,
} from './catalog.schemas.js';
import {
  codedItem,
  countryItem,
  engineItem,
  makeItem,
  modelItem,
  pageSchema,
  pageView,
  partItem,
  stockItem,
  variantItem,
} from './catalog.views.js';

const TAG = 'Catálogos';
/** Static catalogs change only on import: clients and proxies may keep them an hour. */
const STATIC_CACHE_SECONDS = 3600;
/** Lists derived from stock follow the stock. */
const STOCK_CACHE_SECONDS = 60;

interface ListRouteSpec<Params extends TSchema> {
  path: string;
  summary: string;
  item: JsonSchema;
  params?: Params;
  /** the list query (ListQuerySchema) unless the list reads more */
  query?: typeof ListQuerySchema | typeof PartsQuerySchema;
  cacheSeconds?: number;
  errors?: number[];
  /** lists with a cache of their own: the stock-derived ones (in the engine) and the parts */
  uncached?: boolean;
  load(query: ListQuery, params: Static<Params>): Promise<Page<unknown>> | Page<unknown>;
}

/** The same request whatever the order of its query parameters. */
const cacheKey = (path: string, query: object, params: unknown) =>
  `${path} ${JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1)))} ${JSON.stringify(params)}`;

/** Every catalog endpoint: public GET, lang/q/page/per_page, the paged answer, ETag and cache. */
function listRoute<Params extends TSchema = TSchema>(
  catalog: CatalogService,
  spec: ListRouteSpec<Params>,
): AnyRoute {
  return route({
    method: 'get',
    path: spec.path,
    auth: 'public',
    summary: spec.summary,
    tags: [TAG],
    query: spec.query ?? ListQuerySchema,
    ...(spec.params ? { params: spec.params as TSchema } : {}),
    cacheSeconds: spec.cacheSeconds ?? STATIC_CACHE_SECONDS,
    responses: { 200: { description: spec.summary, schema: pageSchema(spec.item) } },
    ...(spec.errors ? { errors: spec.errors } : {}),
    async handler({ query, params }) {
      // the params as their schema reads them (validated before the handler runs)
      const read = params as Static<Params>;
      const page = spec.uncached
        ? await spec.load(query, read)
        : await catalog.pages(cacheKey(spec.path, query, params), () => spec.load(query, read));
      return { body: pageView(query, page) };
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
export function catalogRoutes({ catalog }: { catalog: CatalogService }): AnyRoute[] {
  return [
    listRoute(catalog, {
      path: '/data/catalog/parts',
      summary: 'Catálogo de peças (1 656 peças em seis línguas)',
      query: PartsQuerySchema,
      item: partItem,
      // The parts catalog keeps its own in-process copy (parts-snapshot.ts): no page cache on top.
      uncached: true,
      load: (q) =>
        catalog.parts({
          ...toListRequest(q),
          ...(typeof q.group === 'string' ? { group: q.group } : {}),
          ...(typeof q.type === 'string' ? { type: q.type } : {}),
        }),
    }),
    listRoute(catalog, {
      path: '/data/catalog/brands',
      summary: 'Marcas de veículo com artigos em stock (e quantos)',
      item: stockItem,
      cacheSeconds: STOCK_CACHE_SECONDS,
      uncached: true,
      load: (q) => catalog.stock('make', toListRequest(q)),
    }),
    listRoute(catalog, {
      path: '/data/catalog/models/:brand',
      summary: 'Modelos de uma marca com artigos em stock',
      params: NameParams(
        'brand',
        'Marca (como em /data/catalog/brands; sem distinguir maiúsculas nem acentos)',
      ),
      item: stockItem,
      cacheSeconds: STOCK_CACHE_SECONDS,
      uncached: true,
      load: (q, p) => catalog.stock('model', toListRequest(q), { make: p.brand }),
    }),
    listRoute(catalog, {
      path: '/data/catalog/variants/:model',
      summary: 'Variantes de um modelo com artigos em stock',
      params: NameParams('model', 'Modelo (como em /data/catalog/models/:brand)'),
      item: stockItem,
      cacheSeconds: STOCK_CACHE_SECONDS,
      uncached: true,
      load: (q, p) => catalog.stock('variant', toListRequest(q), { model: p.model }),
    }),
    listRoute(catalog, {
      path: '/data/catalog/vehicle-makes',
      summary: 'Catálogo completo de marcas (1 119)',
      item: makeItem,
      load: (q) => catalog.makes(toListRequest(q)),
    }),
    listRoute(catalog, {
      path: '/data/catalog/vehicle-models/:makeId',
      summary: 'Modelos de uma marca do catálogo',
      params: IdParams('makeId', 'da marca'),
      errors: [404],
      item: modelItem,
      load: (q, p) => catalog.models(p.makeId, toListRequest(q)),
    }),
    listRoute(catalog, {
      path: '/data/catalog/vehicle-variants/:modelId',
      summary: 'Variantes de um modelo, com especificações técnicas',
      params: IdParams('modelId', 'do modelo'),
      errors: [404],
      item: variantItem,
      load: (q, p) => catalog.variants(p.modelId, toListRequest(q)),
    }),
    listRoute(catalog, {
      path: '/data/catalog/vehicle-engines/:variantId',
      summary: 'Motores de uma variante',
      params: IdParams('variantId', 'da variante'),
      errors: [404],
      item: engineItem,
      load: (q, p) => catalog.engines(p.variantId, toListRequest(q)),
    }),
    ...LIST_KINDS.map((kind) =>
      listRoute(catalog, {
        path: `/data/catalog/${kind}`,
        summary: LIST_SUMMARIES[kind],
        item: codedItem,
        load: (q) => catalog.entries(kind, toListRequest(q)),
      }),
    ),
    listRoute(catalog, {
      path: '/data/catalog/countries',
      summary: 'Países (ISO 3166-1, nomes em seis línguas)',
      item: countryItem,
      load: (q) => catalog.countries(toListRequest(q)),
    }),
  ];
}

import type { Static, TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../error-codes.js';
import { route, type AnyRoute, type ApiTag } from '../http/route.js';
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
  catalogSchemaNames,
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

const TAG: ApiTag = {
  name: 'Catalogs',
  description:
    'Public lists, limited per IP address: the parts catalog, the vehicle catalog (makes, models, variants, engines), the makes, models and variants found in stock, and the coded lists, named in six languages (`lang`). Every list pages (`page`, `per_page` up to 500) and filters by name (`q`). Answers carry an ETag (send it in If-None-Match for a 304) and may be cached an hour (a minute for the lists drawn from stock).',
};

const schemas = { ...catalogSchemaNames, CatalogLanguage: ListQuerySchema.properties.lang };
/** Static catalogs change only on import: clients and proxies may keep them an hour. */
const STATIC_CACHE_SECONDS = 3600;
/** Lists derived from stock follow the stock. */
const STOCK_CACHE_SECONDS = 60;

interface ListRouteSpec<Params extends TSchema> {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  item: JsonSchema;
  params?: Params;
  /** the list query (ListQuerySchema) unless the list reads more */
  query?: typeof ListQuerySchema | typeof PartsQuerySchema;
  cacheSeconds?: number;
  errors?: ErrorCode[];
  /** lists with a cache of their own: the stock-derived ones (in the engine) and the parts */
  uncached?: boolean;
  /** the stock-derived lists: drawn from the search engine (refused at once while it is away) */
  fromEngine?: boolean;
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
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: [TAG],
    schemas,
    query: spec.query ?? ListQuerySchema,
    ...(spec.params ? { params: spec.params as TSchema } : {}),
    cacheSeconds: spec.cacheSeconds ?? STATIC_CACHE_SECONDS,
    responses: { 200: { description: spec.summary, schema: pageSchema(spec.item) } },
    ...(spec.errors ? { errors: spec.errors } : {}),
    ...(spec.fromEngine ? { engineLane: 'analytics' as const } : {}),
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

/** Each coded list: its operation's name, summary and description. */
const LISTS: Record<ListKind, [operationId: string, summary: string, description: string]> = {
  types: [
    'listPartTypes',
    'Part types',
    'The parts’ types: the codes `type` of GET /data/catalog/parts takes.',
  ],
  groups: [
    'listPartGroups',
    'Part groups',
    'The parts’ groups: the codes `group` of GET /data/catalog/parts takes.',
  ],
  locations: [
    'listPartLocations',
    'Part locations',
    'Where on the vehicle a part goes (front, rear, engine bay…).',
  ],
  sides: ['listPartSides', 'Sides', 'The sides a part is for (left, right…).'],
  conditions: [
    'listConditions',
    'Stock conditions',
    'The conditions of stock items: the values a search’s `condition` takes and its items’ `condicao` hold.',
  ],
  quality: ['listQualityLevels', 'Quality levels', 'The quality levels of parts.'],
  packaging: ['listPackagingTypes', 'Packaging types', 'The ways parts are packed.'],
  labelling: ['listLabellingTypes', 'Labelling types', 'The ways parts are labelled.'],
  fuels: ['listFuels', 'Fuels', 'The fuels of the vehicle catalog’s variants and engines.'],
  languages: [
    'listLanguages',
    'Supported languages',
    'The languages `lang` takes, each with its name in the language asked and in itself (`native_name`).',
  ],
};

/** The 19 catalog endpoints of the spec. */
export function catalogRoutes({ catalog }: { catalog: CatalogService }): AnyRoute[] {
  return [
    listRoute(catalog, {
      path: '/data/catalog/parts',
      operationId: 'listParts',
      summary: 'The parts catalog',
      description:
        'About 1,656 parts, named in six languages; filtered by name (`q`), `group` and `type`. A part’s `id` is what a search’s `part_id` takes.',
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
      operationId: 'listStockBrands',
      summary: 'Vehicle makes found in stock',
      description:
        'The makes the stock’s items are for, with how many items each; drawn from the stock, cached a minute.',
      item: stockItem,
      cacheSeconds: STOCK_CACHE_SECONDS,
      uncached: true,
      fromEngine: true,
      load: (q) => catalog.stock('make', toListRequest(q)),
    }),
    listRoute(catalog, {
      path: '/data/catalog/models/:brand',
      operationId: 'listStockModels',
      summary: 'Models of a make found in stock',
      description:
        'The models of a make that the stock’s items are for, with how many items each (an unknown make: an empty list).',
      params: NameParams('brand', 'A make, as GET /data/catalog/brands names it (case and accents ignored).'),
      item: stockItem,
      cacheSeconds: STOCK_CACHE_SECONDS,
      uncached: true,
      fromEngine: true,
      load: (q, p) => catalog.stock('model', toListRequest(q), { make: p.brand }),
    }),
    listRoute(catalog, {
      path: '/data/catalog/variants/:model',
      operationId: 'listStockVariants',
      summary: 'Variants of a model found in stock',
      description: 'The variants of a model that the stock’s items are for, with how many items each.',
      params: NameParams('model', 'A model, as GET /data/catalog/models/{brand} names it.'),
      item: stockItem,
      cacheSeconds: STOCK_CACHE_SECONDS,
      uncached: true,
      fromEngine: true,
      load: (q, p) => catalog.stock('variant', toListRequest(q), { model: p.model }),
    }),
    listRoute(catalog, {
      path: '/data/catalog/vehicle-makes',
      operationId: 'listVehicleMakes',
      summary: 'The vehicle catalog’s makes',
      description: 'Every make of the vehicle catalog (about 1,119); its models with `listVehicleModels`.',
      item: makeItem,
      load: (q) => catalog.makes(toListRequest(q)),
    }),
    listRoute(catalog, {
      path: '/data/catalog/vehicle-models/:makeId',
      operationId: 'listVehicleModels',
      summary: 'The models of a make',
      description:
        'A make’s models, each generation of a model line a model of its own (Golf VII, 2012–2020). An unknown make: 404 `CATALOG_ENTRY_NOT_FOUND`.',
      params: IdParams('makeId', 'make'),
      errors: ['CATALOG_ENTRY_NOT_FOUND'],
      item: modelItem,
      load: (q, p) => catalog.models(p.makeId, toListRequest(q)),
    }),
    listRoute(catalog, {
      path: '/data/catalog/vehicle-variants/:modelId',
      operationId: 'listVehicleVariants',
      summary: 'The variants of a model, with their technical data',
      description:
        'Years, body, fuel, power (kW, hp), displacement and engine codes. An unknown model: 404 `CATALOG_ENTRY_NOT_FOUND`.',
      params: IdParams('modelId', 'model'),
      errors: ['CATALOG_ENTRY_NOT_FOUND'],
      item: variantItem,
      load: (q, p) => catalog.variants(p.modelId, toListRequest(q)),
    }),
    listRoute(catalog, {
      path: '/data/catalog/vehicle-engines/:variantId',
      operationId: 'listVehicleEngines',
      summary: 'The engines of a variant',
      description:
        'Code, fuel, displacement, power and cylinders. An unknown variant: 404 `CATALOG_ENTRY_NOT_FOUND`.',
      params: IdParams('variantId', 'variant'),
      errors: ['CATALOG_ENTRY_NOT_FOUND'],
      item: engineItem,
      load: (q, p) => catalog.engines(p.variantId, toListRequest(q)),
    }),
    ...LIST_KINDS.map((kind) =>
      listRoute(catalog, {
        path: `/data/catalog/${kind}`,
        operationId: LISTS[kind][0],
        summary: LISTS[kind][1],
        description: LISTS[kind][2],
        item: codedItem,
        load: (q) => catalog.entries(kind, toListRequest(q)),
      }),
    ),
    listRoute(catalog, {
      path: '/data/catalog/countries',
      operationId: 'listCountries',
      summary: 'Countries',
      description: 'ISO 3166-1 alpha-2 codes (what a search’s `country` takes), named in six languages.',
      item: countryItem,
      load: (q) => catalog.countries(toListRequest(q)),
    }),
  ];
}

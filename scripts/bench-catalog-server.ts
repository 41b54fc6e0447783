/**
 * The measured process of `npm run bench:catalog`: the real API (catalog seeded) and a bare Koa
 * handler that answers the same catalog queries with nothing around them (no rate limit,
 * validation, ETag or compression), from the same kind of page cache the routes use. Started by
 * scripts/bench-catalog.ts through IPC.
 */
import Koa from 'koa';
import { pino } from 'pino';
import { createCatalogCache } from '../src/catalog/catalog-cache.js';
import {
  listCountries,
  listMakes,
  listModels,
  listStock,
  listVariants,
} from '../src/catalog/catalog-queries.js';
import { PartsSnapshot } from '../src/catalog/parts-snapshot.js';
import { seedCatalog } from '../src/catalog/seed.js';
import { migrate } from '../src/db/migrate.js';
import { startServer } from '../src/server.js';
import { createServices } from '../src/services.js';
import { benchConfig, serveBare, stopOnRequest } from './bench-support.js';

const config = benchConfig({
  DATA_DIR: process.env.DATA_DIR ?? '.data/bench-catalog',
  PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000000',
});
const services = await createServices(config, { logger: pino({ level: 'silent' }) });
await migrate(services.db);
const seeded = await seedCatalog(services.db);
const { db, engine } = services;

const api = await startServer(services, 0, '127.0.0.1');

// The same queries the routes run, answered bare (with the same page cache): path → loader.
const cache = createCatalogCache();
const parts = new PartsSnapshot(db);
const request = { lang: 'pt' as const, page: 1, perPage: 50 };
const bare = new Koa();
bare.use(async (ctx) => {
  const [, , , kind, id] = ctx.path.split('/');
  const q = typeof ctx.query.q === 'string' ? ctx.query.q : undefined;
  const r = {
    ...request,
    ...(q ? { q } : {}),
    ...(ctx.query.lang ? { lang: ctx.query.lang as 'de' } : {}),
    ...(ctx.query.per_page ? { perPage: Number(ctx.query.per_page) } : {}),
  };
  const loaders: Record<string, () => unknown> = {
    parts: () => parts.list(r),
    'vehicle-makes': () => listMakes(db, r),
    'vehicle-models': () => listModels(db, Number(id), r),
    'vehicle-variants': () => listVariants(db, Number(id), r),
    countries: () => listCountries(r),
    brands: () => listStock(engine, 'make', r),
  };
  // As in the routes: the stock-derived lists and the parts keep their own caches.
  ctx.body =
    kind === 'brands' || kind === 'parts' ? await loaders[kind]!() : await cache(ctx.url, loaders[kind!]!);
});
const baseline = await serveBare(bare);

process.send!({
  type: 'ready',
  apiUrl: api.url,
  bareUrl: baseline.url,
  seedSeconds: seeded.seeded ? seeded.seconds : null,
  database: services.database.kind,
});
stopOnRequest(api, baseline);

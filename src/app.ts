import Koa, { type Context, type Next } from 'koa';
import compress from 'koa-compress';
import conditional from 'koa-conditional-get';
import etag from '@koa/etag';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { accountRoutes } from './accounts/account.routes.js';
import { apiKeysRoutes } from './accounts/api-keys.routes.js';
import { authRoutes } from './accounts/auth.routes.js';
import { catalogRoutes } from './catalog/catalog.routes.js';
import { creditsRoutes } from './credits/credits.routes.js';
import { errorEnvelope, requestContext } from './http/middleware.js';
import { measureRequests, metricsEndpoint } from './http/metrics-middleware.js';
import { mountRoutes } from './http/mount-routes.js';
import { buildOpenApi } from './http/openapi.js';
import { securityHeaders } from './http/security-headers.js';
import type { AnyRoute } from './http/route.js';
import { paymentsRoutes } from './payments/payments.routes.js';
import { searchRoutes } from './search/search.routes.js';
import type { Services } from './services.js';
import { systemRoutes } from './system/system.routes.js';
import { toolsRoutes } from './tools/tools.routes.js';
import { sellersRoutes } from './sellers/sellers.routes.js';
import { stockFeedsRoutes } from './stock/stock-feeds.routes.js';
import { stockItemsRoutes } from './stock/stock-items.routes.js';
import { webPages, type WebPagesOptions } from './web/web-pages.js';

/**
 * Every declared route of the service, each module's given the services it uses. The OpenAPI
 * document and the test client read the same list.
 */
export function declaredRoutes(services: Services, extraRoutes: AnyRoute[] = []): AnyRoute[] {
  const routes: AnyRoute[] = [];
  const openApi = (() => {
    let doc: OpenAPIObject | undefined;
    return () => (doc ??= buildOpenApi(routes, services.config.publicBaseUrl));
  })();
  routes.push(
    ...systemRoutes({ readiness: services.readiness, openApi }),
    ...authRoutes({ registration: services.registration, login: services.login }),
    ...accountRoutes({ account: services.account }),
    ...apiKeysRoutes({ apiKeys: services.apiKeys }),
    ...searchRoutes({ search: services.search, metrics: services.metrics }),
    ...creditsRoutes({ credits: services.credits }),
    ...paymentsRoutes({ payments: services.payments, sandboxCheckout: services.sandboxCheckout }),
    ...catalogRoutes({ catalog: services.catalog }),
    ...toolsRoutes({ tools: services.tools }),
    ...sellersRoutes({ sellers: services.sellers }),
    ...stockItemsRoutes({ sellers: services.sellers, items: services.stockItems }),
    ...stockFeedsRoutes({ sellers: services.sellers, feeds: services.stockFeeds }),
    ...extraRoutes,
  );
  return routes;
}

/**
 * ETags serve conditional GETs (catalogs, lists); hashing every search answer, which no client can
 * send back in a POST, would only cost CPU.
 */
function readsOnly(middleware: Koa.Middleware): Koa.Middleware {
  return (ctx, next) => (ctx.method === 'GET' || ctx.method === 'HEAD' ? middleware(ctx, next) : next());
}

const VERSION_PREFIX = /^\/v2(?=\/|$)/i;

/** Paths are served as documented and also under /v2, without regard to case as the paths themselves. */
async function versionPrefix(ctx: Context, next: Next) {
  if (VERSION_PREFIX.test(ctx.path)) ctx.path = ctx.path.slice(3) || '/';
  await next();
}

export interface AppOptions {
  /** routes mounted beside the service's own (tests use this for failure paths) */
  extraRoutes?: AnyRoute[];
  /** the dashboard's build directory (default web/dist) */
  web?: WebPagesOptions;
}

export function createApp(services: Services, options: AppOptions = {}): Koa {
  // X-Forwarded-For is read from the right: only the entries our own proxies appended are trusted,
  // so a client cannot choose its address (and its per-IP limits) by sending the header itself.
  const app = new Koa({ proxy: services.config.trustProxy, maxIpsCount: services.config.trustProxyHops });
  app.silent = true;
  const router = mountRoutes(declaredRoutes(services, options.extraRoutes), services);
  app.use(requestContext(services.logger, securityHeaders(services.config.hstsMaxAgeSeconds)));
  app.use(measureRequests(services.metrics));
  app.use(errorEnvelope(services.logger, services.config.bodyTimeoutSeconds));
  app.use(metricsEndpoint(services.metrics, services.config.metricsToken));
  app.use(compress({ threshold: 1024 }));
  app.use(conditional());
  app.use(readsOnly(etag()));
  app.use(versionPrefix);
  // The person's pages (/dashboard, /docs): static files with their own CSP, before the API's routes.
  app.use(webPages(options.web));
  // No body is read here: each route reads its own, once its credentials and limits let it (mount-routes).
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: false }));
  return app;
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { GUARD_LIMITS, type Metrics } from '../metrics/metrics.js';
import { unauthenticated } from '../errors.js';

/** The declared path pattern the router matched (set by @koa/router), or what the request was. */
function routeOf(ctx: Context): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === 'string') return matched;
  return typeof ctx.state.metricsRoute === 'string' ? ctx.state.metricsRoute : 'unmatched';
}

/**
 * Times every request into the duration histogram by method, route pattern and final status (it
 * runs outside the error envelope, so it sees the status sent), and counts the abuse guards' 429s.
 */
export function measureRequests(metrics: Metrics) {
  return async (ctx: Context, next: Next) => {
    const end = metrics.requestDuration.startTimer();
    try {
      await next();
    } finally {
      end({ method: ctx.method, route: routeOf(ctx), status: String(ctx.status) });
      if (ctx.status === 429) {
        const code = (ctx.body as { code?: unknown } | undefined)?.code;
        const limit = typeof code === 'string' ? GUARD_LIMITS[code] : undefined;
        if (limit) metrics.rateLimitRefusals.inc({ limit });
      }
    }
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics on the API's own port, for a scraper that presents `Authorization: Bearer
 * <METRICS_TOKEN>`; without METRICS_TOKEN the path does not exist here (see METRICS_PORT).
 */
export function metricsEndpoint(metrics: Metrics, token: string | null) {
  const expected = token === null ? null : digest(`Bearer ${token}`);
  return async (ctx: Context, next: Next) => {
    if (expected === null || ctx.path !== '/metrics' || (ctx.method !== 'GET' && ctx.method !== 'HEAD'))
      return next();
    ctx.state.metricsRoute = '/metrics';
    if (!timingSafeEqual(digest(ctx.get('authorization')), expected)) {
      throw unauthenticated('Token de métricas em falta ou inválido.', 'INVALID_METRICS_TOKEN');
    }
    const { contentType, text } = await metrics.expose();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = text;
  };
}

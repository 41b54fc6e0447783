import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Next } from 'koa';
import send from 'koa-send';
import { ServiceError } from '../errors.js';
import { FAVICON_ICO } from './favicon.js';

/**
 * The pages a person uses: the dashboard (the Vite build of web/, a single-page app) under
 * /dashboard and the API reference (Scalar's standalone bundle over /openapi.json) under /docs.
 * Every byte comes from this process: no CDN. These are the only HTML answers of the service, so
 * they alone replace the JSON API's `default-src 'none'` policy with one that lets the page run.
 */

/** web/dist from src/web/ (tsx) and from dist/src/web/ (the image copies the build to dist/web/dist). */
export const WEB_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

const SCALAR_BUNDLE = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');

/**
 * The dashboard: scripts and styles only from files of this origin (no inline script or style
 * element; the app sets styles through the CSSOM, which CSP does not govern), requests only to this
 * API, never framed.
 */
const pagePolicy = (styles: string, extra: string[] = []) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    `style-src ${styles}`,
    "img-src 'self' data:",
    ...extra,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

export const DASHBOARD_CSP = pagePolicy("'self'");

/**
 * The reference: Scalar (Vue) writes <style> elements and style attributes at run time, so styles
 * need 'unsafe-inline'; its scripts stay 'self' only (no 'unsafe-eval': the page renders without
 * it). Its fonts, telemetry and agent are switched off in docs-init.js, so nothing leaves the origin.
 */
export const DOCS_CSP = pagePolicy("'self' 'unsafe-inline'", ["font-src 'self' data:"]);

const DOCS_HTML = `<!doctype html>
<html lang="pt">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Parts Stock Search API — referência</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/scalar.js"></script>
    <script src="/docs/docs-init.js"></script>
  </body>
</html>
`;

/**
 * Scalar's start-up, as a file (no inline script): the document from this API; no external fonts,
 * no telemetry, no "agent" (on localhost it would ask api.scalar.com through proxy.scalar.com).
 */
const DOCS_INIT = `Scalar.createApiReference('#app', {
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
});
`;

/** /docs's own two small files: [type, body]. */
const DOCS_TEXT = new Map<string, [string, string]>([
  ['/docs', ['html', DOCS_HTML]],
  ['/docs/', ['html', DOCS_HTML]],
  ['/docs/docs-init.js', ['js', DOCS_INIT]],
]);

const IMMUTABLE = 'public, max-age=31536000, immutable';

function pageHeaders(ctx: Context, csp: string) {
  ctx.set('Content-Security-Policy', csp);
  // The dashboard's own links carry no secrets, but the search page's URL may: keep no-referrer.
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
}

async function serveDashboard(ctx: Context, root: string) {
  pageHeaders(ctx, DASHBOARD_CSP);
  const rest = ctx.path.replace(/^\/dashboard\/?/, '');
  if (!existsSync(join(root, 'index.html'))) {
    throw new ServiceError(
      'DASHBOARD_NOT_BUILT',
      'O painel não foi construído: execute npm run build:web (o npm start fá-lo sozinho).',
    );
  }
  if (rest.startsWith('assets/')) {
    // Vite names every asset by its content hash: a changed file is a new URL.
    const served = await send(ctx, rest, { root, immutable: true, maxAge: 31_536_000_000 }).catch(() => null);
    if (served) ctx.set('Cache-Control', IMMUTABLE);
    return;
  }
  // Every other path is one of the app's own routes: the same index.html, always revalidated.
  await send(ctx, 'index.html', { root });
  ctx.set('Cache-Control', 'no-cache');
}

export interface WebPagesOptions {
  /** the dashboard's build (tests may point elsewhere) */
  distDir?: string;
}

/**
 * Koa middleware: /dashboard (GET/HEAD), /docs and the icon browsers ask every page's origin for
 * (/favicon.ico); every other request passes on to the API.
 */
export function webPages(options: WebPagesOptions = {}) {
  const root = options.distDir ?? WEB_DIST;
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const path = ctx.path;
    if (path === '/dashboard' || path.startsWith('/dashboard/')) return serveDashboard(ctx, root);
    if (path === '/favicon.ico') {
      ctx.type = 'image/x-icon';
      ctx.body = FAVICON_ICO;
      ctx.set('Cache-Control', 'public, max-age=86400');
      return;
    }
    const docsText = DOCS_TEXT.get(path);
    if (docsText || path === '/docs/scalar.js') {
      pageHeaders(ctx, DOCS_CSP);
      // Revalidated (ETag): the bundle changes with the package under the same name.
      if (docsText) [ctx.type, ctx.body] = docsText;
      else await send(ctx, basename(SCALAR_BUNDLE), { root: dirname(SCALAR_BUNDLE) });
      ctx.set('Cache-Control', 'no-cache');
      return;
    }
    return next();
  };
}

import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import { UnknownCredentialError, type Authenticator, type Principal } from '../principal.js';
import type { CredentialFailureGuard } from '../limits/abuse-guards.js';
import { ServiceError } from '../errors.js';
import type { RequestRateLimiter } from '../limits/request-rate-limiter.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import type { IdempotencyStore } from '../idempotency/idempotency-store.js';
import type { Logger } from '../logger.js';
import { runIdempotently } from './idempotency.js';
import type { AnyRoute, EngineLane, Upload } from './route.js';
import { bodyReader, DEFAULT_BODY_LIMIT_KB } from './read-body.js';
import { assertStorable } from './storable-input.js';
import { validateInput } from './validation.js';

export interface RouteDependencies {
  authenticator: Authenticator;
  rateLimiter: RequestRateLimiter;
  credentialGuard: CredentialFailureGuard;
  idempotency: IdempotencyStore;
  logger: Logger;
  /** the search engine's guards: the refusal a request of a lane gets now (its breaker open), or null */
  engine: { refusalNow(lane: EngineLane): ServiceError | null };
  config: { bodyTimeoutSeconds: number };
}

/** Whether the request carries body bytes (a POST with Content-Length: 0 carries none). */
const hasContent = (ctx: Context) =>
  Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';

/**
 * The caller behind the request's credentials. Unknown credentials count against the caller's IP;
 * an IP over the limit is turned away (429) before its credentials are looked up (see
 * CredentialFailureGuard).
 */
async function authenticate(
  ctx: Context,
  accepted: Exclude<AnyRoute['auth'], 'public'>,
  deps: RouteDependencies,
): Promise<Principal> {
  const credentials = {
    apiKey: ctx.get('x-api-key') || undefined,
    authorization: ctx.get('authorization') || undefined,
  };
  const presented = `${credentials.apiKey ?? ''}\n${credentials.authorization ?? ''}`;
  deps.credentialGuard.assertAllowed(ctx.ip, presented);
  try {
    const principal = await deps.authenticator.authenticate(credentials, accepted);
    deps.credentialGuard.recordSuccess(presented);
    return principal;
  } catch (error) {
    // Only credentials the database did not know count: a guess, not a valid key on the wrong
    // route, an expired session or a malformed header.
    if (error instanceof UnknownCredentialError) await deps.credentialGuard.recordFailure(ctx.ip);
    throw error;
  }
}

/**
 * An upload route's body, checked before a byte is read: its media type and encoding must be ones
 * the route takes (415), and a Content-Length past the route's most is refused (413) at once.
 */
function acceptUpload(ctx: Context, accepted: NonNullable<AnyRoute['upload']>): Upload {
  const mediaType = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  const encoding = (ctx.get('content-encoding') || 'identity').trim().toLowerCase();
  if (!accepted.mediaTypes.includes(mediaType)) {
    throw new ServiceError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Tipo de conteúdo não suportado: envie ${accepted.mediaTypes.join(' ou ')} (Content-Type).`,
    );
  }
  if (!accepted.encodings.includes(encoding)) {
    throw new ServiceError(
      'UNSUPPORTED_CONTENT_ENCODING',
      `Content-Encoding não suportado: envie o corpo sem compressão ou em ${accepted.encodings.filter((e) => e !== 'identity').join(', ')}.`,
    );
  }
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > accepted.maxBytes) {
    throw new ServiceError(
      'PAYLOAD_TOO_LARGE',
      `O corpo tem ${declared} bytes; o máximo aceite é ${accepted.maxBytes} bytes.`,
    );
  }
  return { stream: ctx.req, mediaType, encoding };
}

/**
 * Mounts each declaration: credentials, the engine's breaker (for the routes that need it), rate
 * limit, then the body (read only now, and only as much as the route allows: a refused request
 * costs no reading or parsing), validation, handler, response.
 */
export function mountRoutes(routes: AnyRoute[], deps: RouteDependencies): Router {
  const router = new Router();
  for (const r of routes) {
    const readBody = r.body
      ? bodyReader(r.bodyLimitKb ?? DEFAULT_BODY_LIMIT_KB, deps.config.bodyTimeoutSeconds)
      : null;
    router[r.method](r.path, async (ctx: Context) => {
      let principal: Principal | null = null;
      if (r.auth !== 'public') {
        principal = await authenticate(ctx, r.auth, deps);
        ctx.state.accountId = principal.accountId;
        if (r.scope && !principal.scopes.includes(r.scope)) {
          throw new ServiceError(
            'INSUFFICIENT_SCOPE',
            `Esta credencial não tem o âmbito ${r.scope}: crie uma chave de API com ele (scopes).`,
            { scope: r.scope },
          );
        }
      }
      if (r.engineLane) {
        const refusal = deps.engine.refusalNow(r.engineLane);
        if (refusal) throw refusal;
      }
      const policy = r.rateLimit ?? (r.auth === 'bearer' ? 'dashboard' : 'default');
      if (policy !== 'none') {
        const limit = await deps.rateLimiter.check({ principal, ip: ctx.ip, policy });
        if (limit) ctx.set(rateLimitHeaders(limit));
      }
      if (readBody) await readBody(ctx);
      const upload = r.upload ? acceptUpload(ctx, r.upload) : undefined;

      // A body the JSON parser skipped (sent as text, a form, without a type...) would otherwise
      // read as "{}" and be answered as if its fields were missing, or accepted without them.
      if (r.body && hasContent(ctx) && ctx.request.rawBody === undefined) {
        throw new ServiceError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Tipo de conteúdo não suportado: envie o corpo em JSON, com Content-Type: application/json.',
        );
      }
      assertStorable('caminho', ctx.params);
      assertStorable('query', ctx.query);
      if (readBody) assertStorable('corpo', ctx.request.body);
      const params = r.params ? validateInput('params', r.params, { ...ctx.params }) : ctx.params;
      const query = r.query ? validateInput('query', r.query, { ...ctx.query }) : ctx.query;
      const body = r.body ? validateInput('body', r.body, ctx.request.body ?? {}) : undefined;

      const request = {
        body,
        query,
        params,
        principal,
        ip: ctx.ip,
        requestId: ctx.state.requestId as string,
        header: (name: string) => ctx.get(name) || undefined,
        rawBody: ctx.request.rawBody ?? '',
        log: ctx.state.log as Record<string, unknown>,
        ...(upload ? { upload } : {}),
      };
      const result =
        r.idempotent && principal
          ? await runIdempotently(
              deps.idempotency,
              deps.logger,
              r,
              { ...request, principal },
              ctx.headers['idempotency-key'],
              { params, query, body },
            )
          : await r.handler(request);
      ctx.status = result.status ?? 200;
      if (result.headers) ctx.set(result.headers);
      if (r.cacheSeconds !== undefined) ctx.set('Cache-Control', `public, max-age=${r.cacheSeconds}`);
      else if (r.auth !== 'public') ctx.set('Cache-Control', 'no-store');
      if (result.contentType) {
        // A page or a redirect (the sandbox checkout), a file (a feed's error report, streamed):
        // sent as the handler wrote it.
        ctx.type = result.contentType;
        ctx.body = typeof result.body === 'string' || result.body instanceof Readable ? result.body : '';
        return;
      }
      // Serialized once here: the ETag middleware then hashes this text instead of stringifying
      // the object a second time.
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = JSON.stringify(result.body);
    });
  }
  return router;
}

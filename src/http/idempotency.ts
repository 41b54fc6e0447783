import { createHash } from 'node:crypto';
import type { TransactionScope } from '../db/transaction-scope.js';
import type { Logger } from 'pino';
import {
  IdempotencyKeyLostError,
  type IdempotencyStore,
  type StoredResponse,
} from '../idempotency/idempotency-store.js';
import { ServiceError } from '../errors.js';
import { errorResponse } from './error-response.js';
import type { AnyRoute, IdempotentAttempt, RouteRequest, RouteResponse } from './route.js';

/**
 * Idempotency-Key, with Stripe's semantics, on the routes declared `idempotent` (the charged
 * searches and the purchase). The first request with a key runs; its response (status, the headers
 * the route set, body) is kept 24 hours and sent again, with `Idempotent-Replayed: true`, to every
 * later request of the same account with the same key and the same parameters, which then charges
 * nothing. The same key with other parameters is a 422; while its first request runs, a 409.
 *
 * Kept: every response the route gave, success or 4xx (402, 404…), except 400, 401, 409 and 429.
 * Not kept: a request refused before it ran, as Stripe does (credentials, rate limit, a body that
 * fails validation: a 400 has no effect and the same body always gets it again), a 409 or 429
 * (about the moment, not the request), and 5xx (a 503 must not be replayed once the dependency is
 * back): the key is given up and a retry runs afresh.
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1–255 printable ASCII characters (a UUID, a hash, an order number…). */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x20-\\x7E]{1,255}$';
const KEY_FORMAT = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** Statuses that are not kept for the key, besides every 5xx. */
const NOT_KEPT = new Set([400, 401, 409, 429]);

const invalidKey = () =>
  new ServiceError(
    'INVALID_IDEMPOTENCY_KEY',
    'O cabeçalho Idempotency-Key deve ter de 1 a 255 caracteres ASCII imprimíveis (por exemplo, um UUID).',
  );

export const keyReused = () =>
  new ServiceError(
    'IDEMPOTENCY_KEY_REUSED',
    'Esta Idempotency-Key já foi usada nas últimas 24 horas num pedido diferente (outra rota ou outros parâmetros). Use uma chave nova para cada pedido novo.',
  );

export const keyInUse = () =>
  new ServiceError(
    'IDEMPOTENCY_KEY_IN_USE',
    'Um pedido com esta Idempotency-Key ainda está a ser processado. Aguarde a resposta dele e repita.',
    {},
    1,
  );

/** JSON with object keys sorted, so that the order of a body's fields does not make it another request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The route and its validated parameters (defaults applied: `{}` and `{"page":1}` are one request). */
function fingerprintOf(route: AnyRoute, input: { params: unknown; query: unknown; body: unknown }): Buffer {
  return createHash('sha256')
    .update(`${route.method} ${route.path}\n${canonicalJson(input)}`)
    .digest();
}

const stored = (response: RouteResponse): StoredResponse => ({
  status: response.status ?? 200,
  headers: response.headers ?? {},
  body: JSON.stringify(response.body),
});

/**
 * Runs an idempotent route's handler under the request's Idempotency-Key (or plainly, without
 * one). `header` is the raw header value; the caller is authenticated (keys are per account).
 */
export async function runIdempotently(
  store: IdempotencyStore,
  logger: Logger,
  route: AnyRoute,
  request: RouteRequest<unknown, unknown, unknown, 'either'>,
  header: string | string[] | undefined,
  input: { params: unknown; query: unknown; body: unknown },
): Promise<RouteResponse> {
  if (header === undefined) return route.handler(request);
  const key = Array.isArray(header) ? header.join(', ') : header;
  if (!KEY_FORMAT.test(key)) throw invalidKey();
  const accountId = request.principal.accountId;
  // keys are the account's; an API key bound to one seller (stock:write) has its own, so that two
  // sellers' systems of one account choosing the same key never meet
  const sellerId = request.principal.sellerId;
  const scopedKey = sellerId ? `vendedor ${sellerId}: ${key}` : key;

  const claim = await store.claim(accountId, scopedKey, fingerprintOf(route, input));
  request.log.idempotency = claim.outcome;
  if (claim.outcome === 'mismatch') throw keyReused();
  if (claim.outcome === 'in_flight') throw keyInUse();
  if (claim.outcome === 'replay') {
    const { status, headers, body } = claim.response;
    return { status, headers: { ...headers, [REPLAYED_HEADER]: 'true' }, body: JSON.parse(body) as unknown };
  }

  const { attempt } = claim;
  let completed = false;
  const idempotency: IdempotentAttempt = {
    alongside: <T>(respond: (value: T) => RouteResponse): TransactionScope<T> => ({
      run: (work) =>
        store.db.transaction().execute(async (trx) => {
          const value = await work(trx);
          await store.complete(trx, accountId, scopedKey, attempt, stored(respond(value)));
          completed = true;
          return value;
        }),
    }),
  };

  try {
    const response = await route.handler({ ...request, idempotency });
    if (!completed) await store.complete(store.db, accountId, scopedKey, attempt, stored(response));
    return response;
  } catch (error) {
    if (error instanceof IdempotencyKeyLostError) throw keyInUse();
    const response = error instanceof ServiceError ? errorResponse(error) : null;
    if (response && response.status < 500 && !NOT_KEPT.has(response.status)) {
      await store
        .complete(store.db, accountId, scopedKey, attempt, stored(response))
        .catch((failure: unknown) => {
          // The caller still gets its answer; the key stays held until its lease passes.
          if (!(failure instanceof IdempotencyKeyLostError))
            logger.warn({ err: failure, reqId: request.requestId }, 'idempotency key: response not stored');
        });
      throw error;
    }
    await store.release(accountId, scopedKey, attempt).catch((failure: unknown) => {
      logger.warn({ err: failure, reqId: request.requestId }, 'idempotency key: not released');
    });
    throw error;
  }
}

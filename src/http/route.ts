import type { Static, TSchema } from '@sinclair/typebox';
import type { Readable } from 'node:stream';
import type { Principal, AuthMode, Scope } from '../principal.js';
import type { TransactionScope } from '../db/transaction-scope.js';
import type { RateLimitPolicy } from '../limits/request-rate-limiter.js';
import type { JsonSchema } from '../json-schema.js';
import type { ErrorCode } from '../error-codes.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The search engine's lanes of work: pages, or the statistics and the stock-derived lists. */
export type EngineLane = 'pages' | 'analytics';

/** What a handler sees: validated input and the caller. No Koa. */
export interface RouteRequest<Body, Query, Params, A extends AuthMode> {
  body: Body;
  query: Query;
  params: Params;
  principal: A extends 'public' ? Principal | null : Principal;
  ip: string;
  requestId: string;
  header(name: string): string | undefined;
  /** the body exactly as received (for signature checks); empty without a body */
  rawBody: string;
  /** values for the request's log line (credits spent, engine, ...) */
  log: Record<string, unknown>;
  /** on an `idempotent` route called with an Idempotency-Key (see http/idempotency.ts) */
  idempotency?: IdempotentAttempt;
  /** on an `upload` route: the body as it arrives, unread (the handler streams it) */
  upload?: Upload;
}

/** A body the handler reads itself, as a stream (a stock feed of hundreds of megabytes). */
export interface Upload {
  stream: Readable;
  /** its Content-Type, without parameters, lower-case */
  mediaType: string;
  /** its Content-Encoding (identity when none), lower-case */
  encoding: string;
}

/** What a route's handler can do with the key it runs under. */
export interface IdempotentAttempt {
  /**
   * A transaction in which the route does its writes (the charge, the payment row) and whose commit
   * also stores `respond(result)` as the key's response: a replay then always agrees with what was
   * written, even if the process ends before answering. Without it the response is stored after
   * the handler returns.
   */
  alongside<T>(respond: (value: T) => RouteResponse): TransactionScope<T>;
}

export interface RouteResponse {
  status?: number;
  /**
   * JSON-encoded; with `contentType`, a string or a stream sent as it is (an HTML page, a CSV
   * report); undefined: no body
   */
  body: unknown;
  headers?: Record<string, string>;
  /** the body's media type when it is not JSON (the declaration's response says so too) */
  contentType?: string;
}

/** A group of operations in /openapi.json (a generated client's class: SearchApi, CreditsApi...). */
export interface ApiTag {
  /** ASCII letters and spaces only: generators make class names of it */
  name: string;
  description: string;
}

export interface ResponseDoc {
  description: string;
  schema?: JsonSchema;
  /** media type of a response that is not JSON (text/html); its schema describes the text */
  contentType?: string;
  /** headers this response sets beyond the ones every response (or every rate-limited one) has */
  headers?: Record<string, { description: string; required?: boolean; schema: JsonSchema }>;
}

/**
 * One declaration per endpoint: it drives routing, credential checks, rate limiting, ajv
 * validation of the input, and the OpenAPI document.
 */
interface RouteDeclaration<Body, Query, Params, A extends AuthMode> {
  method: HttpMethod;
  /** Koa-style path: /data/catalog/models/:brand */
  path: string;
  auth: A;
  /**
   * the operation's name in /openapi.json and in generated clients (searchStock, listVehicleMakes);
   * without it, one is made of the method and path
   */
  operationId?: string;
  summary: string;
  /** what an integrator needs beyond the summary (English, Markdown) */
  description?: string;
  /** the module's tag, with its description (a bare name must be described by another route) */
  tags: (ApiTag | string)[];
  /**
   * Schemas with a name: wherever the route's inputs or outputs hold one of them (equal in content),
   * /openapi.json refers to components.schemas.<name> instead of repeating it, so that generated
   * clients get one named type (StockItem, PriceStats...) shared by every operation that uses it.
   */
  schemas?: Record<string, JsonSchema>;
  body?: JsonSchema;
  /**
   * the body as /openapi.json shows it, when the handler checks a part of it itself (a tool's input
   * against that tool's own schema, with its own messages); default: `body`
   */
  documentedBody?: JsonSchema;
  query?: JsonSchema;
  params?: JsonSchema;
  /** success responses by status; the error responses are added from the declaration */
  responses: Record<number, ResponseDoc>;
  /**
   * errors this route can answer beyond the ones implied by the declaration (credentials, body,
   * limits, idempotency): a status, or a code (its status is the code's kind's), which the
   * document then names for this operation
   */
  errors?: (number | ErrorCode)[];
  /** which limit counts the request (see RateLimitPolicy); default: 'default' */
  rateLimit?: RateLimitPolicy;
  /** largest body read, in KB (DEFAULT_BODY_LIMIT_KB when unset); larger: 413 */
  bodyLimitKb?: number;
  /** accepts an Idempotency-Key (authenticated POSTs with effects: charges, payments) */
  idempotent?: boolean;
  /** public, cacheable GET: ETag + Cache-Control max-age in seconds */
  cacheSeconds?: number;
  /** the credential must hold this scope (an API key's; a session holds every scope), else 403 */
  scope?: Scope;
  /**
   * the search engine's lane this route cannot answer without: while the engine's circuit breaker
   * is open, the route answers 503 right after the credentials, before the rate limit counts the
   * request or its body is read (a load balancer's shedding: a refusal costs next to nothing)
   */
  engineLane?: EngineLane;
  /**
   * a body the handler streams itself instead of a JSON body: the media types it takes (415
   * otherwise), the encodings (identity, gzip) and the most it may send (by Content-Length: 413
   * before a byte is read; the handler counts what a chunked body sends)
   */
  upload?: { mediaTypes: string[]; encodings: string[]; maxBytes: number };
  handler(request: RouteRequest<Body, Query, Params, A>): Promise<RouteResponse>;
}

/** What a TypeBox schema validates to; an input the route does not declare is not read. */
type Validated<S> = S extends TSchema ? Static<S> : unknown;

/**
 * A route whose inputs are TypeBox schemas: the schema ajv checks and the OpenAPI document shows is
 * the declaration the handler's types come from, so the two cannot drift apart.
 */
export type RouteSpec<
  B extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  P extends TSchema | undefined = undefined,
  A extends AuthMode = AuthMode,
> = Omit<RouteDeclaration<Validated<B>, Validated<Q>, Validated<P>, A>, 'body' | 'query' | 'params'> & {
  body?: B;
  query?: Q;
  params?: P;
};

// Handlers are contravariant in their request type; the registry only needs the declaration.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDeclaration<any, any, any, AuthMode>;

/** Declares a route, its handler's input types inferred from its schemas; returns it unchanged. */
export function route<
  B extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  P extends TSchema | undefined = undefined,
  A extends AuthMode = AuthMode,
>(spec: RouteSpec<B, Q, P, A>): AnyRoute {
  return spec as AnyRoute;
}

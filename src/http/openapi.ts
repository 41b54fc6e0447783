import {
  OpenApiBuilder,
  type HeaderObject,
  type HeadersObject,
  type OperationObject,
  type OpenAPIObject,
  type ResponseObject,
  type SchemaObject,
  type TagObject,
} from 'openapi3-ts/oas31';
import { ERROR_CODES, type ErrorCode } from '../error-codes.js';
import { DependencyUnavailableError, unauthenticated, type ServiceError } from '../errors.js';
import { envelope, statusOfCode } from './error-response.js';
import {
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  keyInUse,
  keyReused,
  REPLAYED_HEADER,
} from './idempotency.js';
import { internalError } from './middleware.js';
import { OPERATION_EXAMPLES } from './openapi-examples.js';
import { SchemaComponents } from './openapi-components.js';
import { DEFAULT_BODY_LIMIT_KB } from './read-body.js';
import type { AnyRoute } from './route.js';
import { FIELD_PROBLEM_REASONS } from './validation.js';

/**
 * The OpenAPI 3.1 document of the declared routes, written for the code generators integrators
 * run on it (openapi-generator, @hey-api/openapi-ts, openapi-typescript): every shared shape a
 * named component, every operation a name, every error status its envelope with its codes, every
 * header the service sends declared, every request and answer an example taken from a real one.
 */

/** Where the document's tags come in the reference, before any other. */
const TAG_ORDER = ['Authentication', 'Account', 'API keys', 'Search', 'Credits', 'Catalogs', 'Tools'];
const TRAILING_TAGS = ['Payments', 'System'];

/** The error envelope of each status the routes answer, its name and what it means. */
const ERROR_STATUSES: Record<number, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description: 'The request is not valid: a field is missing, unknown or out of range.',
  },
  401: { name: 'Unauthorized', description: 'No credential, or one that is not valid here.' },
  402: {
    name: 'PaymentRequired',
    description: 'Not enough credits, or a daily credit limit reached: nothing was charged.',
  },
  403: { name: 'Forbidden', description: 'The credential may not do this.' },
  404: { name: 'NotFound', description: 'No such resource.' },
  405: { name: 'MethodNotAllowed', description: 'The path exists, not with this method.' },
  408: { name: 'RequestTimeout', description: 'The request did not arrive whole in time.' },
  409: { name: 'Conflict', description: 'The request conflicts with the state of a resource.' },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than the operation accepts.' },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The body is not JSON, or its Content-Encoding is not supported.',
  },
  422: {
    name: 'UnprocessableEntity',
    description: 'The Idempotency-Key was used before with other parameters.',
  },
  429: { name: 'TooManyRequests', description: 'A rate limit is reached: wait for Retry-After seconds.' },
  431: { name: 'RequestHeadersTooLarge', description: 'The URL or the headers are too long.' },
  500: {
    name: 'InternalServer',
    description: 'An error of the service’s own; quote the X-Request-Id to support.',
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'A dependency does not answer now; nothing was charged. Retry after Retry-After seconds.',
  },
};

const OPEN_LIST = 'Open list: values may be added (a client must accept one it does not know).';

/** The codes answered with `status`, from src/error-codes.ts. */
const codesOf = (status: number): ErrorCode[] =>
  (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => statusOfCode(code) === status).sort();

const codeEnum = (codes: ErrorCode[], what: string): SchemaObject => ({
  type: 'string',
  description: `${what} Codes are never renamed or reused. ${OPEN_LIST}`,
  enum: codes,
  'x-enum-descriptions': codes.map((code) => ERROR_CODES[code].meaning),
});

/** A field that failed validation, as `campos` lists it. */
const fieldProblemSchema: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['campo', 'motivo', 'mensagem'],
  description: 'A field that failed validation.',
  properties: {
    campo: {
      type: 'string',
      description:
        'The field as the message names it, prefixed by where it was sent: `corpo.per_page`, `query.page`, `caminho.id`, `corpo.input.image`.',
      examples: ['corpo.per_page'],
    },
    motivo: {
      type: 'string',
      enum: [...FIELD_PROBLEM_REASONS],
      description: `Why it failed (\`unknown\`: a field the operation does not take). ${OPEN_LIST}`,
    },
    mensagem: { type: 'string', description: 'The same, in Portuguese, as one sentence.' },
  },
};

/** Details some codes add to the envelope, by status. */
const ERROR_DETAILS: Record<number, Record<string, SchemaObject>> = {
  400: {
    campos: {
      type: 'array',
      minItems: 1,
      items: fieldProblemSchema,
      description:
        'With `VALIDATION_ERROR` and `INVALID_CHARACTERS`: every field that failed, so that a client can point at each.',
    },
    field: { type: 'string', description: 'With `LIMIT_ABOVE_PLAN`: the limit asked above the plan.' },
    plan_value: { type: 'integer', description: 'With `LIMIT_ABOVE_PLAN`: the plan’s value of that limit.' },
  },
  402: {
    credits_remaining: {
      type: 'integer',
      minimum: 0,
      description: 'With `INSUFFICIENT_CREDITS`: the balance.',
    },
    credits_required: { type: 'integer', minimum: 1, description: 'With `INSUFFICIENT_CREDITS`: the cost.' },
    daily_credit_limit: {
      type: 'integer',
      minimum: 1,
      description: 'With `DAILY_LIMIT_REACHED`: the limit reached (the key’s, the account’s or the plan’s).',
    },
    spent_today: {
      type: 'integer',
      minimum: 0,
      description: 'With `DAILY_LIMIT_REACHED`: credits spent today (UTC day).',
    },
  },
  429: {
    remaining: { type: 'integer', minimum: 0, description: 'Requests left in the window: 0.' },
    resetAt: {
      type: 'string',
      format: 'date-time',
      description: 'When the window that refused resets (ISO-8601, UTC).',
    },
  },
  503: {
    checks: {
      type: 'object',
      description: 'With `NOT_READY` (GET /ready): each dependency’s check.',
      additionalProperties: {
        type: 'object',
        required: ['ok', 'ms'],
        properties: { ok: { type: 'boolean' }, ms: { type: 'number' }, error: { type: 'string' } },
      },
    },
  },
};

/** `success` of an error: false (a boolean in the document, for generated clients' sake). */
const failure = (strict: boolean): SchemaObject => ({
  type: 'boolean',
  description: 'Always false in an error.',
  ...(strict ? { const: false } : {}),
});

/**
 * The envelope of an error status, its codes inline; `strict` for the tests' check of answers
 * (success exactly false).
 */
function errorSchema(status: number, strict = false): SchemaObject {
  const { description } = ERROR_STATUSES[status] ?? { description: 'An error.' };
  return {
    type: 'object',
    required: ['success', 'mensagem', 'code', ...(status === 429 ? ['remaining', 'resetAt'] : [])],
    description: `The error envelope of a ${status}. ${description} Other fields may be added.`,
    properties: {
      success: failure(strict),
      mensagem: { type: 'string', description: 'What went wrong, in Portuguese, for a person to read.' },
      code: codeEnum(codesOf(status), `The stable code of a ${status}: what a program matches on.`),
      ...ERROR_DETAILS[status],
    },
  };
}

/** The envelope every error has, whatever its status (405, 408, 431 are answered before any route). */
const apiErrorSchema: SchemaObject = {
  type: 'object',
  required: ['success', 'mensagem', 'code'],
  description:
    'The envelope of every error: `success` false, a Portuguese `mensagem`, a stable `code`; some codes add details.',
  properties: {
    success: failure(false),
    mensagem: { type: 'string', description: 'What went wrong, in Portuguese, for a person to read.' },
    code: codeEnum((Object.keys(ERROR_CODES) as ErrorCode[]).sort(), 'Every stable error code.'),
  },
};

/** Headers of the service's responses, by name, as components.headers declares them. */
const HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': {
    description: 'The request’s id (the one sent, when valid, else a new one): quote it to support.',
    required: true,
    schema: { type: 'string', examples: ['3f1c9d2e-8b7a-4c55-9e0f-2a6d1b4c7e90'] },
  },
  'X-API-Version': {
    description: 'The API’s version.',
    required: true,
    schema: { type: 'string', enum: ['2.0'] },
  },
  'X-RateLimit-Limit': {
    description:
      'Requests allowed in the window closest to running out (the caller’s plan, or a key’s own lower limit; per IP on public operations). Sent once the request has been counted: not on a 401, nor on a 429 for unknown credentials.',
    schema: { type: 'integer', minimum: 1, examples: [60] },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in that window.',
    schema: { type: 'integer', minimum: 0, examples: [59] },
  },
  'X-RateLimit-Reset': {
    description: 'When that window resets, in Unix seconds (UTC).',
    schema: { type: 'integer', examples: [1795478407] },
  },
  'RateLimit-Policy': {
    description:
      'Every window the request was counted in, `<requests>;w=<seconds>`, comma-separated: the key’s, then the account’s.',
    schema: { type: 'string', examples: ['60;w=60, 1000;w=3600'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before asking again.',
    schema: { type: 'integer', minimum: 1, examples: [5] },
  },
  'WWW-Authenticate': {
    description: 'The credentials the service takes: a Bearer token, or an API key in X-API-Key.',
    required: true,
    schema: { type: 'string', enum: ['Bearer, ApiKey'] },
  },
  [REPLAYED_HEADER]: {
    description:
      'Sent on the stored answer to an earlier request with the same Idempotency-Key (nothing was charged again): true. Absent on every other answer, so it is named in the descriptions of the idempotent operations’ answers rather than among their headers.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Cache-Control': {
    description:
      '`no-store` on answers to a credential; `public, max-age=<seconds>` on the public catalogs (3600; 60 for the lists drawn from stock) and packages (300).',
    schema: { type: 'string', examples: ['no-store', 'public, max-age=3600'] },
  },
  ETag: {
    description:
      'The answer’s entity tag: send it back in If-None-Match to get a 304 without a body while it holds.',
    schema: { type: 'string', examples: ['"2c-9bYq0dMcY3nD5k1m1o2z1w"'] },
  },
};

const EVERY_RESPONSE = ['X-Request-Id', 'X-API-Version'];
const RATE_LIMITED = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy'];

const headerRefs = (names: string[]): HeadersObject =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** Koa's /a/:id to OpenAPI's /a/{id} */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** An operation's name when its declaration gives none: the method and the path, camelCase. */
const derivedOperationId = (r: AnyRoute) =>
  `${r.method}${openApiPath(r.path)
    .replace(/[{}]/g, '')
    .replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string) => (c ? c.toUpperCase() : ''))}`;

export const operationIdOf = (r: AnyRoute) => r.operationId ?? derivedOperationId(r);

/** Codes every operation of this kind can answer, by what its declaration says. */
function impliedCodes(r: AnyRoute): ErrorCode[] {
  const codes: ErrorCode[] = ['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
  if (r.body || r.query || r.params) codes.push('VALIDATION_ERROR', 'INVALID_CHARACTERS');
  if (r.body) {
    codes.push(
      'INVALID_JSON',
      'INVALID_CONTENT_ENCODING',
      'REQUEST_ABORTED',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'UNSUPPORTED_CONTENT_ENCODING',
    );
  }
  if (r.upload) {
    // a streamed body: refused by its type or encoding (415), its declared or counted size (413),
    // or cut off before its end
    codes.push(
      'REQUEST_ABORTED',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'UNSUPPORTED_CONTENT_ENCODING',
    );
  }
  if (r.auth !== 'public') {
    codes.push(
      'UNAUTHORIZED',
      'INVALID_API_KEY',
      'INVALID_TOKEN',
      'TOKEN_EXPIRED',
      'TOO_MANY_CREDENTIAL_FAILURES',
    );
    codes.push(r.auth === 'bearer' ? 'BEARER_REQUIRED' : 'CREDENTIALS_MISMATCH');
  }
  if (r.rateLimit !== 'none') codes.push('RATE_LIMITED');
  if (r.idempotent) codes.push('INVALID_IDEMPOTENCY_KEY', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED');
  return codes;
}

/** The codes the operation answers, by status: implied by its declaration, and declared. */
function codesByStatus(r: AnyRoute): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  const add = (status: number, code?: ErrorCode) => {
    const codes = byStatus.get(status) ?? [];
    if (code && !codes.includes(code)) codes.push(code);
    byStatus.set(status, codes);
  };
  for (const code of impliedCodes(r)) add(statusOfCode(code), code);
  for (const error of r.errors ?? []) {
    if (typeof error === 'number') add(error);
    else add(statusOfCode(error), error);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/**
 * Examples of errors whose text does not depend on the route, built by the service's own error
 * constructors: exactly what it answers.
 */
const GENERIC_ERRORS: Record<number, (r: AnyRoute) => ServiceError> = {
  401: () => unauthenticated(),
  409: () => keyInUse(),
  422: () => keyReused(),
  500: () => internalError(),
  503: () => new DependencyUnavailableError('database'),
};

/** The example answer of `status` for the operation: captured from a real answer, or the generic one. */
function exampleOf(r: AnyRoute, status: number): unknown {
  const captured = OPERATION_EXAMPLES[operationIdOf(r)]?.responses[status];
  if (captured !== undefined) return captured;
  const generic = status === 409 && !r.idempotent ? undefined : GENERIC_ERRORS[status];
  if (generic) return envelope(generic(r));
  // the shared 413 and 415 were answered to a JSON body of the usual limit: their text says so
  const sameBody = !r.upload && (r.bodyLimitKb ?? DEFAULT_BODY_LIMIT_KB) === DEFAULT_BODY_LIMIT_KB;
  if ((status === 413 || status === 415) && !sameBody) return undefined;
  return SHARED_ERROR_EXAMPLES[status];
}

/** Error answers captured once on some route and true of every route (scripts/openapi-examples.ts). */
const SHARED_ERROR_EXAMPLES: Record<number, unknown> = Object.fromEntries(
  Object.entries(OPERATION_EXAMPLES['*']?.responses ?? {}).map(([status, body]) => [Number(status), body]),
);

function errorResponse(r: AnyRoute, status: number, codes: ErrorCode[]): ResponseObject {
  const limited = r.rateLimit !== 'none';
  const headers = [...EVERY_RESPONSE];
  if (limited && status !== 401) headers.push(...RATE_LIMITED);
  if (status === 401) headers.push('WWW-Authenticate');
  if (status === 429 || status === 503 || (status === 409 && r.idempotent)) headers.push('Retry-After');
  const info = ERROR_STATUSES[status] ?? { name: `Error${status}`, description: 'An error.' };
  const listed = codes.length ? codes : codesOf(status);
  const limit = status === 413 ? ` At most ${r.bodyLimitKb ?? DEFAULT_BODY_LIMIT_KB} KB.` : '';
  const example = exampleOf(r, status);
  return {
    description: `${info.description}${limit} Codes: ${listed.map((c) => `\`${c}\``).join(', ')}.`,
    headers: headerRefs(headers),
    content: {
      'application/json': {
        schema: { $ref: `#/components/schemas/${info.name}Error` },
        ...(example !== undefined ? { example } : {}),
      },
    },
  };
}

function operation(r: AnyRoute, components: SchemaComponents): OperationObject {
  const op: OperationObject = {
    operationId: operationIdOf(r),
    summary: r.summary,
    tags: r.tags.map((t) => (typeof t === 'string' ? t : t.name)),
  };
  if (r.description) op.description = r.description;
  if (r.auth === 'either') op.security = [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
  else if (r.auth === 'bearer') op.security = [{ BearerAuth: [] }];
  else op.security = [];
  const examples = OPERATION_EXAMPLES[operationIdOf(r)];

  const parameters: NonNullable<OperationObject['parameters']> = [];
  for (const [location, schema] of [
    ['path', r.params],
    ['query', r.query],
  ] as const) {
    const properties = (schema?.properties ?? {}) as Record<string, SchemaObject>;
    const required = new Set((schema?.required as string[] | undefined) ?? []);
    for (const [name, propertySchema] of Object.entries(properties)) {
      const value = (location === 'path' ? examples?.params : examples?.query)?.[name];
      parameters.push({
        name,
        in: location,
        required: location === 'path' || required.has(name),
        schema: components.use(propertySchema as Record<string, unknown>),
        ...(propertySchema.description ? { description: propertySchema.description } : {}),
        ...(value !== undefined ? { example: value } : {}),
      });
    }
  }
  if (r.idempotent) {
    parameters.push({
      name: IDEMPOTENCY_HEADER,
      in: 'header',
      required: false,
      description:
        'A key of your own for this request (a UUID will do), to retry it without being charged twice. For 24 hours the same request of the same account with the same key gets the stored answer again (with `Idempotent-Replayed: true`); with other parameters, 422 `IDEMPOTENCY_KEY_REUSED`; while the first is still running, 409 `IDEMPOTENCY_KEY_IN_USE`. Successes and 4xx answers are kept (except 400, 401, 409 and 429); a 5xx is not, so a retry after it runs afresh.',
      schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN, minLength: 1, maxLength: 255 },
      example: '5b0f4d0e-3c1a-4f7e-9a52-7f3f0b9d2c61',
    });
  }
  if (parameters.length) op.parameters = parameters;
  if (r.upload) {
    // A streamed file (a stock feed): one entry per media type it takes, so that a generated
    // client has a body to send; its example is the recorded file, under the first media type.
    op.requestBody = {
      required: true,
      description: `The file, streamed. \`Content-Encoding\`: ${r.upload.encodings.map((e) => `\`${e}\``).join(', ')}. At most ${r.upload.maxBytes} bytes.`,
      content: Object.fromEntries(
        r.upload.mediaTypes.map((type, i) => [
          type,
          {
            schema: { type: 'string' },
            ...(i === 0 && examples?.request !== undefined ? { example: examples.request } : {}),
          },
        ]),
      ),
    };
  }
  if (r.body) {
    const schema = components.use(r.documentedBody ?? r.body);
    op.requestBody = {
      required: true,
      content: {
        'application/json': {
          schema,
          ...(examples?.request !== undefined ? { example: examples.request } : {}),
        },
      },
    };
  }

  const responses: NonNullable<OperationObject['responses']> = {};
  op.responses = responses;
  const limited = r.rateLimit !== 'none';
  for (const [status, doc] of Object.entries(r.responses)) {
    const names = [...EVERY_RESPONSE, ...(limited ? RATE_LIMITED : [])];
    if (r.method === 'get' && !doc.contentType) names.push('ETag');
    if (!doc.headers?.['Cache-Control'] && (r.cacheSeconds !== undefined || r.auth !== 'public'))
      names.push('Cache-Control');
    const example = examples?.responses[Number(status)];
    responses[status] = {
      // Idempotent-Replayed is sent on replays only: said here, not among the headers every such answer has
      description: r.idempotent
        ? `${doc.description}. A replay also carries \`${REPLAYED_HEADER}: true\`.`
        : doc.description,
      headers: { ...headerRefs(names), ...(doc.headers as HeadersObject | undefined) },
      ...(doc.schema
        ? {
            content: {
              [doc.contentType ?? 'application/json']: {
                schema: components.use(doc.schema),
                ...(example !== undefined ? { example } : {}),
              },
            },
          }
        : {}),
    };
  }
  for (const [status, codes] of codesByStatus(r)) responses[String(status)] = errorResponse(r, status, codes);
  return op;
}

/** The tags of the routes, in reference order, each with the description its module gives. */
function tagsOf(routes: AnyRoute[]): TagObject[] {
  const tags = new Map<string, string | undefined>();
  for (const r of routes) {
    for (const t of r.tags) {
      const [name, description] = typeof t === 'string' ? [t, undefined] : [t.name, t.description];
      const known = tags.get(name);
      if (known && description && known !== description) throw new Error(`tag ${name} is described twice`);
      tags.set(name, known ?? description);
    }
  }
  const rank = (name: string) => {
    const first = TAG_ORDER.indexOf(name);
    if (first >= 0) return first;
    const last = TRAILING_TAGS.indexOf(name);
    return last >= 0 ? 1000 + last : 500;
  };
  return [...tags]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([name, description]) => ({ name, ...(description ? { description } : {}) }));
}

const DESCRIPTION = `Search sellers' stock of automotive parts by OEM/aftermarket reference, vehicle, catalog part or free text, with price statistics over the whole result set. Searches are paid in credits.

**Credentials.** \`X-API-Key: psk_…\` for integrations (created with \`POST /api-keys\` or \`POST /data/auth/register-user\`), or \`Authorization: Bearer pst_…\` from \`POST /auth/login\` (30 days). Each operation says which it takes; a missing or invalid one is a 401 with \`WWW-Authenticate\`.

**Credits and the search token.** A first page with results costs 1 credit and returns a \`search_token\`, valid 10 minutes, bound to the account and to the search fields (not to \`page\`, \`per_page\`). Send the same fields with the token and another \`page\`: free. The answer's \`X-Search-Token-Status\` says what the token sent counted as:

| status | when | cost of a page with results |
| --- | --- | --- |
| \`valid\` | the token holds for this account and these fields | 0 |
| \`none\` | no token sent | 1 (a new token) |
| \`expired\` | more than 10 minutes old | 1 (a new token) |
| \`invalid\` | not a token this service signed | 1 (a new token) |
| \`mismatch\` | another account's, or other search fields | 1 (a new token) |

A search without results costs nothing and returns no token. Statistics (\`POST /data/search/stats\`) cost 1 credit when there are results. Not enough credits: 402, nothing charged.

**Errors.** Every error is \`{"success": false, "mensagem": "<Portuguese>", "code": "<STABLE_CODE>"}\`; each status has its envelope (\`BadRequestError\`, \`TooManyRequestsError\`…) listing its codes. A validation error lists each failed field in \`campos\`. Codes are never renamed or reused; new ones may be added.

**Limits.** Per account (its plan: 60 requests a minute and 1,000 an hour by default), per key when it has limits of its own, per IP on public operations. Counted answers carry \`X-RateLimit-*\` and \`RateLimit-Policy\`; past a limit, 429 with \`Retry-After\`.

**Compatibility.** Version 2.0; every path is also served under \`/v2\`. Within 2.0, answers may gain fields, requests may gain optional fields, and the enums marked "open list" may gain values: a client must ignore fields and accept values it does not know. Enums marked "closed list" do not change within 2.0. Every response also carries the security headers \`X-Content-Type-Options\`, \`X-Frame-Options\`, \`Referrer-Policy\` and \`Content-Security-Policy\` (and \`Strict-Transport-Security\` where configured).`;

/** The OpenAPI 3.1 document of every declared route. */
export function buildOpenApi(routes: AnyRoute[], serverUrl: string): OpenAPIObject {
  const base = serverUrl.replace(/\/$/, '');
  const builder = OpenApiBuilder.create()
    .addOpenApiVersion('3.1.0')
    .addInfo({
      title: 'Parts Stock Search API',
      version: '2.0',
      description: DESCRIPTION,
      contact: { name: 'Parts Stock Search API support', url: `${base}/docs` },
      license: {
        name: 'Proprietary: use under the terms of your account with the provider',
        identifier: 'LicenseRef-Proprietary',
      },
    })
    .addServer({ url: base, description: 'This server (PUBLIC_BASE_URL)' })
    .addServer({ url: `${base}/v2`, description: 'The same paths under /v2' })
    .addServer({
      url: '{scheme}://{host}',
      description: 'Any deployment of the service: where your provider serves it',
      variables: {
        scheme: { default: 'https', enum: ['https', 'http'] },
        host: { default: 'api.example.com', description: 'Host and port' },
      },
    })
    .addSecurityScheme('ApiKeyAuth', {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description:
        'An API key (`psk_…`): shown once when created; limits of its own within the account’s plan.',
    })
    .addSecurityScheme('BearerAuth', {
      type: 'http',
      scheme: 'bearer',
      description: 'A session token (`pst_…`) from POST /auth/login, valid 30 days.',
    });
  for (const [name, header] of Object.entries(HEADERS)) builder.addHeader(name, header);

  const components = new SchemaComponents();
  for (const r of routes)
    for (const [name, schema] of Object.entries(r.schemas ?? {})) components.name(name, schema);

  const paths = new Map<string, Record<string, OperationObject>>();
  const statuses = new Set<number>();
  const ids = new Set<string>();
  for (const r of routes) {
    const id = operationIdOf(r);
    if (ids.has(id)) throw new Error(`two operations are named ${id}`);
    ids.add(id);
    const path = openApiPath(r.path);
    const item = paths.get(path) ?? {};
    item[r.method] = operation(r, components);
    for (const status of codesByStatus(r).keys()) statuses.add(status);
    paths.set(path, item);
  }
  for (const [path, item] of paths) builder.addPath(path, item);
  for (const tag of tagsOf(routes)) builder.addTag(tag);

  const schemas: Record<string, SchemaObject> = {
    ApiError: apiErrorSchema,
    FieldProblem: fieldProblemSchema,
  };
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const { name } = ERROR_STATUSES[status] ?? { name: `Error${status}` };
    const { code, ...rest } = errorSchema(status).properties!;
    schemas[`${name}ErrorCode`] = code as SchemaObject;
    schemas[`${name}Error`] = {
      ...errorSchema(status),
      properties: {
        ...rest,
        code: { $ref: `#/components/schemas/${name}ErrorCode` },
        ...(status === 400
          ? {
              campos: { ...ERROR_DETAILS[400]!.campos, items: { $ref: '#/components/schemas/FieldProblem' } },
            }
          : {}),
      },
    };
  }
  for (const [name, schema] of Object.entries({ ...components.definitions(), ...schemas }).sort(([a], [b]) =>
    a.localeCompare(b),
  ))
    builder.addSchema(name, schema);
  return builder.getSpec();
}

/** The schema a response with this status must match (the error envelope for error statuses). */
export function responseSchemaFor(r: AnyRoute, status: number): Record<string, unknown> | undefined {
  if (r.responses[status]) return r.responses[status]!.schema;
  if (status >= 400) return errorSchema(status, true) as Record<string, unknown>;
  return undefined;
}

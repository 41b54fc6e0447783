/**
 * Every stable error `code` the service answers with, its kind (which the HTTP layer turns into a
 * status: src/http/error-response.ts) and what it means. The one list: a ServiceError can only be
 * raised with a code written here (the type says so), docs/api.md's table is generated from it
 * (`npm run docs:error-codes`, a test keeps it equal) and the OpenAPI document lists each status's
 * codes from it. A code is never renamed or reused; new ones may be added.
 */

/** What went wrong, for the caller; the HTTP layer alone maps it to a status. */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'conflict'
  | 'too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'rate_limited'
  | 'headers_too_large'
  | 'internal'
  | 'unavailable';

interface CodeEntry {
  kind: ErrorKind;
  meaning: string;
}

export const ERROR_CODES = {
  // 400
  VALIDATION_ERROR: {
    kind: 'invalid',
    meaning:
      'A field is missing, unknown, of the wrong type or out of range; the message and `campo` name it.',
  },
  INVALID_REQUEST: {
    kind: 'invalid',
    meaning: 'The request is not acceptable as sent (the message says why).',
  },
  INVALID_JSON: { kind: 'invalid', meaning: 'The body is not a JSON object.' },
  INVALID_CONTENT_ENCODING: {
    kind: 'invalid',
    meaning: 'The body does not decompress as its Content-Encoding says.',
  },
  INVALID_CHARACTERS: {
    kind: 'invalid',
    meaning: 'A text field holds characters that cannot be stored (a NUL, an unpaired surrogate).',
  },
  MALFORMED_REQUEST: { kind: 'invalid', meaning: 'The HTTP request could not be parsed.' },
  REQUEST_ABORTED: { kind: 'invalid', meaning: 'The client closed the request before its body arrived.' },
  MISSING_SEARCH_FIELD: {
    kind: 'invalid',
    meaning:
      'A search needs at least one of reference, vehicle_make, part_id or text (or their Portuguese names).',
  },
  CONFLICTING_FIELDS: {
    kind: 'invalid',
    meaning: 'A field was sent under its English and its Portuguese name with different values.',
  },
  INVALID_REFERENCE: { kind: 'invalid', meaning: 'The reference has no letters or digits.' },
  INVALID_TEXT: { kind: 'invalid', meaning: 'The text has no searchable words.' },
  INVALID_COUNTRY: { kind: 'invalid', meaning: 'The country is not an ISO 3166-1 alpha-2 code.' },
  INVALID_PRICE: { kind: 'invalid', meaning: 'A price bound has more than two decimals.' },
  INVALID_PRICE_RANGE: { kind: 'invalid', meaning: 'price_min is above price_max.' },
  PAGE_OUT_OF_RANGE: { kind: 'invalid', meaning: 'page × per_page goes past the first 10,000 results.' },
  INVALID_DATE_RANGE: { kind: 'invalid', meaning: 'The history’s `from` is not before its `to`.' },
  INVALID_EMAIL: { kind: 'invalid', meaning: 'The e-mail address is not valid.' },
  WEAK_PASSWORD: { kind: 'invalid', meaning: 'The password is too short or too common.' },
  LIMIT_ABOVE_PLAN: {
    kind: 'invalid',
    meaning: 'A key’s or the account’s limit would be above the account’s plan.',
  },
  INVALID_IDEMPOTENCY_KEY: {
    kind: 'invalid',
    meaning: 'The Idempotency-Key header is not 1–255 printable ASCII characters.',
  },
  INVALID_IMAGE: {
    kind: 'invalid',
    meaning: 'The tool’s image is not a readable JPEG, PNG or WebP data URI within the limits.',
  },
  INVALID_WEBHOOK_EVENT: { kind: 'invalid', meaning: 'A payment webhook’s body cannot be read.' },
  CREDITS_BELOW_ZERO: {
    kind: 'invalid',
    meaning: 'An operator’s correction would take the balance below zero (nothing changed).',
  },
  CREDITS_ABOVE_MAXIMUM: {
    kind: 'invalid',
    meaning: 'An operator’s grant would take the balance past its maximum (nothing changed).',
  },
  // 401
  UNAUTHORIZED: { kind: 'unauthenticated', meaning: 'No credential, or one that is not valid.' },
  INVALID_API_KEY: { kind: 'unauthenticated', meaning: 'The API key is unknown or revoked.' },
  INVALID_TOKEN: { kind: 'unauthenticated', meaning: 'The Bearer token is unknown or its session ended.' },
  TOKEN_EXPIRED: {
    kind: 'unauthenticated',
    meaning: 'The Bearer token’s session has expired: log in again.',
  },
  BEARER_REQUIRED: {
    kind: 'unauthenticated',
    meaning: 'This route takes a Bearer token only, not an API key.',
  },
  CREDENTIALS_MISMATCH: {
    kind: 'unauthenticated',
    meaning: 'An API key and a Bearer token of different accounts were sent together.',
  },
  INVALID_CREDENTIALS: { kind: 'unauthenticated', meaning: 'Wrong e-mail or password.' },
  INVALID_SIGNATURE: { kind: 'unauthenticated', meaning: 'A payment webhook’s signature does not hold.' },
  INVALID_METRICS_TOKEN: {
    kind: 'unauthenticated',
    meaning: 'GET /metrics without its token, or with a wrong one.',
  },
  // 402
  INSUFFICIENT_CREDITS: {
    kind: 'payment_required',
    meaning: 'The balance does not pay for this request; nothing was charged.',
  },
  DAILY_LIMIT_REACHED: {
    kind: 'payment_required',
    meaning: 'The key’s, the account’s or the plan’s daily credit limit is reached (UTC day).',
  },
  // 403
  FORBIDDEN: { kind: 'forbidden', meaning: 'The credential may not do this.' },
  INSUFFICIENT_SCOPE: {
    kind: 'forbidden',
    meaning: 'The API key lacks the scope this route needs (search, or stock:write for its own seller).',
  },
  // 404
  NOT_FOUND: { kind: 'not_found', meaning: 'No such resource.' },
  ROUTE_NOT_FOUND: { kind: 'not_found', meaning: 'No such route.' },
  ACCOUNT_NOT_FOUND: { kind: 'not_found', meaning: 'No such account.' },
  API_KEY_NOT_FOUND: { kind: 'not_found', meaning: 'No such API key of this account.' },
  CATALOG_ENTRY_NOT_FOUND: {
    kind: 'not_found',
    meaning: 'No such make, model, variant or part in the catalog.',
  },
  TOOL_NOT_FOUND: { kind: 'not_found', meaning: 'No tool with this slug.' },
  PACKAGE_NOT_FOUND: { kind: 'not_found', meaning: 'No credit package with this id on sale.' },
  PAYMENT_NOT_FOUND: { kind: 'not_found', meaning: 'No payment with this reference.' },
  SELLER_NOT_FOUND: {
    kind: 'not_found',
    meaning:
      'No such seller, or not one this credential writes (another account’s, or another than its key’s).',
  },
  STOCK_ITEM_NOT_FOUND: { kind: 'not_found', meaning: 'The seller has no item with this SKU.' },
  FEED_NOT_FOUND: { kind: 'not_found', meaning: 'No such feed of a seller this credential writes.' },
  WEBHOOK_NOT_ACTIVE: {
    kind: 'not_found',
    meaning: 'That payment provider is not the one this server uses.',
  },
  SANDBOX_NOT_ACTIVE: { kind: 'not_found', meaning: 'The sandbox checkout is not in use on this server.' },
  // 405, 408
  METHOD_NOT_ALLOWED: {
    kind: 'method_not_allowed',
    meaning: 'The route exists, not with this method (see Allow).',
  },
  REQUEST_TIMEOUT: { kind: 'request_timeout', meaning: 'The request did not arrive whole in time.' },
  // 409
  CONFLICT: { kind: 'conflict', meaning: 'The request conflicts with the resource’s state.' },
  EMAIL_TAKEN: { kind: 'conflict', meaning: 'An account with this e-mail already exists.' },
  API_KEY_LIMIT_REACHED: { kind: 'conflict', meaning: 'The account holds as many live API keys as it may.' },
  SELLER_LIMIT_REACHED: { kind: 'conflict', meaning: 'The account holds as many seller profiles as it may.' },
  IDEMPOTENCY_KEY_IN_USE: {
    kind: 'conflict',
    meaning: 'A request with this Idempotency-Key is still running.',
  },
  DATA_DIR_IN_USE: {
    kind: 'unavailable',
    meaning: 'Operator commands: another live process holds the embedded database’s directory.',
  },
  // 413, 415, 422
  PAYLOAD_TOO_LARGE: { kind: 'too_large', meaning: 'The body is larger than the route accepts.' },
  UNSUPPORTED_MEDIA_TYPE: {
    kind: 'unsupported_media_type',
    meaning: 'The body is not sent as application/json.',
  },
  UNSUPPORTED_CONTENT_ENCODING: {
    kind: 'unsupported_media_type',
    meaning: 'The Content-Encoding is not one of gzip, deflate or br.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    kind: 'unprocessable',
    meaning: 'The Idempotency-Key was used before with other parameters.',
  },
  // 429, 431
  RATE_LIMITED: {
    kind: 'rate_limited',
    meaning: 'A rate limit is reached (see Retry-After, remaining, resetAt).',
  },
  TOO_MANY_CREDENTIAL_FAILURES: {
    kind: 'rate_limited',
    meaning: 'Too many unknown credentials from this address: it is turned away for a while.',
  },
  TOO_MANY_LOGIN_ATTEMPTS: {
    kind: 'rate_limited',
    meaning: 'Too many failed logins for this account or address.',
  },
  TOO_MANY_REGISTRATIONS: { kind: 'rate_limited', meaning: 'Too many registrations from this address.' },
  REQUEST_HEADERS_TOO_LARGE: {
    kind: 'headers_too_large',
    meaning: 'The URL or the headers are longer than 16 KB.',
  },
  // 500, 503
  INTERNAL_ERROR: {
    kind: 'internal',
    meaning: 'An error of the service’s own; the request id finds it in the log.',
  },
  SERVICE_UNAVAILABLE: {
    kind: 'unavailable',
    meaning:
      'A dependency (database, search cluster, Redis) does not answer now; nothing was charged. See Retry-After.',
  },
  NOT_READY: { kind: 'unavailable', meaning: 'GET /ready: a dependency does not answer yet.' },
  PASSWORD_WORK_BUSY: {
    kind: 'unavailable',
    meaning: 'Too many password checks are waiting; try again shortly.',
  },
  ENGINE_BUSY: {
    kind: 'unavailable',
    meaning:
      'The search engine has as many requests in flight as this process allows; try again shortly (Retry-After).',
  },
  PAYMENTS_NOT_CONFIGURED: { kind: 'unavailable', meaning: 'Purchases are off on this server.' },
  PAYMENT_PROVIDER_UNAVAILABLE: {
    kind: 'unavailable',
    meaning: 'The payment provider does not answer; nothing was recorded.',
  },
  DASHBOARD_NOT_BUILT: {
    kind: 'unavailable',
    meaning: 'The dashboard’s files are not built (npm run build:web).',
  },
} as const satisfies Record<string, CodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes of one kind: what a helper raising that kind may be given. */
export type CodeOf<K extends ErrorKind> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C]['kind'] extends K ? C : never;
}[ErrorCode];

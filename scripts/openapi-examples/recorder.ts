import { operationIdOf } from '../../src/http/openapi.js';
import type { AnyRoute } from '../../src/http/route.js';
import type { OperationExamples } from '../../src/http/openapi-examples.js';

/** What a call of the flow answered. */
export interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  headers?: Record<string, string>;
  /** a body sent as it is (a feed's CSV, a signed webhook) instead of JSON */
  rawBody?: string;
  /**
   * whether this answer becomes the operation's example: `first` (default) when none of its status
   * is kept yet; `no` for setup calls; `shared` for an error true of every operation (413, 415, 429)
   */
  example?: 'first' | 'no' | 'shared';
}

/**
 * Answers kept besides JSON: CSV (short, and what a client parses). An HTML page and a redirect's
 * text are not examples a client needs.
 */
const KEPT_TEXT = /^text\/csv/;

/** An operation's examples while recording: whether its request is kept yet. */
type Recording = OperationExamples & { succeeded?: boolean };

interface Store {
  examples: Record<string, Recording>;
  /** '*': errors true of every operation */
  shared: OperationExamples;
}

/** The route a request goes to, and the values of its path's parameters. */
function matchRoute(routes: AnyRoute[], method: string, path: string) {
  for (const r of routes) {
    if (r.method !== method.toLowerCase()) continue;
    const names: string[] = [];
    const pattern = r.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const match = new RegExp(`^${pattern}$`).exec(path);
    if (match) {
      const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
      return { route: r, params };
    }
  }
  return undefined;
}

/** Parameters' values typed as the route's schema of them declares (a page=2 is 2, a makeId 56). */
function typed(schema: unknown, values: Iterable<[string, string]>): Record<string, unknown> {
  const properties =
    (schema as { properties?: Record<string, { type?: string }> } | undefined)?.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [name, value] of values) {
    const type = properties[name]?.type;
    out[name] =
      type === 'integer' || type === 'number' ? Number(value) : type === 'boolean' ? value === 'true' : value;
  }
  return out;
}

/**
 * An HTTP client of the running API that keeps, by operationId, the requests it sent and the
 * answers it got: the first answer of each status is that status's example, and the request of
 * the first success is the request's example (its body, path parameters and query).
 */
export class ExampleRecorder {
  constructor(
    private readonly baseUrl: string,
    private readonly routes: AnyRoute[],
    private readonly credentials: Record<string, string> = {},
    private readonly store: Store = { examples: {}, shared: { responses: {} } },
  ) {}

  /** The same recorder (the same examples) sending these credentials on every call. */
  as(credentials: Record<string, string>): ExampleRecorder {
    return new ExampleRecorder(this.baseUrl, this.routes, credentials, this.store);
  }

  /** The same recorder calling another server (one configured otherwise: Stripe's webhook). */
  on(baseUrl: string): ExampleRecorder {
    return new ExampleRecorder(baseUrl, this.routes, {}, this.store);
  }
  withApiKey = (key: string) => this.as({ 'X-API-Key': key });
  withBearer = (token: string) => this.as({ Authorization: `Bearer ${token}` });

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    options: CallOptions = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...this.credentials, ...options.headers };
    const payload = options.rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
    if (payload !== undefined) headers['Content-Type'] ??= 'application/json';
    const response = await fetch(this.baseUrl + path, { method, headers, body: payload, redirect: 'manual' });
    const type = response.headers.get('content-type') ?? '';
    const text = await response.text();
    const parsed = (/json/.test(type) && text ? JSON.parse(text) : text) as T;
    // a raw JSON body (a signed webhook) is shown as the JSON it is; a feed's CSV as its text
    const sent =
      options.rawBody !== undefined && /json/.test(headers['Content-Type']!)
        ? (JSON.parse(options.rawBody) as unknown)
        : (options.rawBody ?? body);
    this.keep(method, path, response.status, type, options, sent, parsed);
    return { status: response.status, headers: response.headers, body: parsed };
  }

  get = <T = Record<string, unknown>>(path: string, options?: CallOptions) =>
    this.call<T>('GET', path, undefined, options);
  post = <T = Record<string, unknown>>(path: string, body?: unknown, options?: CallOptions) =>
    this.call<T>('POST', path, body, options);
  put = <T = Record<string, unknown>>(path: string, body?: unknown, options?: CallOptions) =>
    this.call<T>('PUT', path, body, options);
  patch = <T = Record<string, unknown>>(path: string, body?: unknown, options?: CallOptions) =>
    this.call<T>('PATCH', path, body, options);
  delete = <T = Record<string, unknown>>(path: string, options?: CallOptions) =>
    this.call<T>('DELETE', path, undefined, options);

  /** Every operation's examples, and under '*' the errors true of every operation. */
  all(): Record<string, OperationExamples> {
    const ordered = Object.fromEntries(
      Object.entries(this.store.examples)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([id, { succeeded: _s, ...examples }]) => [id, examples]),
    );
    const { shared } = this.store;
    return Object.keys(shared.responses).length ? { ...ordered, '*': shared } : ordered;
  }

  private keep(
    method: string,
    path: string,
    status: number,
    type: string,
    options: CallOptions,
    request: unknown,
    answer: unknown,
  ): void {
    const mode = options.example ?? 'first';
    if (mode === 'no' || status === 304) return;
    const keptAnswer = status < 300 || status >= 400 ? /json/.test(type) || KEPT_TEXT.test(type) : false;
    if (mode === 'shared') {
      if (keptAnswer) this.store.shared.responses[status] ??= answer;
      return;
    }
    const url = new URL(this.baseUrl + path);
    const matched = matchRoute(this.routes, method, url.pathname);
    if (!matched) throw new Error(`openapi-examples: ${method} ${url.pathname} is no declared route`);
    const examples = (this.store.examples[operationIdOf(matched.route)] ??= { responses: {} });
    const success = status < 400;
    // the request of the operation's first success, whatever its answer's media type (a page, a redirect)
    if (success && !examples.succeeded) {
      examples.succeeded = true;
      if (request !== undefined) examples.request = request;
      if (Object.keys(matched.params).length)
        examples.params = typed(matched.route.params, Object.entries(matched.params));
      if ([...url.searchParams].length) examples.query = typed(matched.route.query, url.searchParams);
    }
    if (keptAnswer) examples.responses[status] ??= answer;
  }
}

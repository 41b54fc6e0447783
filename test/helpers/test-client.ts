import { expect } from 'vitest';
import { responseSchemaFor } from '../../src/http/openapi.js';
import type { AnyRoute } from '../../src/http/route.js';
import { checkAgainst } from '../../src/json-schema.js';

export interface TestResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** sent as-is (for malformed or oversized bodies); otherwise `body` is JSON-encoded */
  rawBody?: string;
  /** skip the declared-schema check (for requests to undeclared paths) */
  unchecked?: boolean;
  /** 'manual' to see a redirect instead of following it */
  redirect?: RequestRedirect;
}

function matchRoute(routes: AnyRoute[], method: string, path: string): AnyRoute | undefined {
  const bare = path.split('?')[0]!.replace(/^\/v2(?=\/|$)/, '') || '/';
  return routes.find((r) => {
    if (r.method !== method.toLowerCase()) return false;
    const pattern = new RegExp('^' + r.path.replace(/:[A-Za-z_]+/g, '[^/]+') + '$');
    return pattern.test(bare);
  });
}

/**
 * HTTP client for integration tests. Every response of a declared route is checked against the
 * schema that route declares for its status (the error envelope for errors): a handler that
 * drifts from its documented shape fails the test that exercised it.
 */
export class TestClient {
  constructor(
    readonly baseUrl: string,
    private readonly routes: AnyRoute[],
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  /** The same client with credentials (or other headers) on every request. */
  with(headers: Record<string, string>): TestClient {
    return new TestClient(this.baseUrl, this.routes, { ...this.defaultHeaders, ...headers });
  }
  withApiKey(key: string): TestClient {
    return this.with({ 'X-API-Key': key });
  }
  withBearer(token: string): TestClient {
    return this.with({ Authorization: `Bearer ${token}` });
  }

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...options.headers };
    let payload: string | undefined = options.rawBody;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['Content-Type'] ??= 'application/json';
    const response = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: payload,
      redirect: options.redirect,
    });
    const text = await response.text();
    const json = !response.headers.get('content-type') || /json/.test(response.headers.get('content-type')!);
    const parsed = text ? ((json ? JSON.parse(text) : text) as T) : (undefined as T);
    if (!options.unchecked && json && response.status !== 304) {
      const declared = matchRoute(this.routes, method, path);
      const schema = declared ? responseSchemaFor(declared, response.status) : undefined;
      if (declared && response.status < 400) {
        expect(
          schema,
          `${method} ${path} answered ${response.status}, which it does not declare`,
        ).toBeDefined();
      }
      if (schema) {
        const errors = checkAgainst(schema, parsed);
        expect(
          errors,
          `${method} ${path} ${response.status}: response does not match its declared schema`,
        ).toBeNull();
      }
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  get<T = Record<string, unknown>>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, undefined, options);
  }
  post<T = Record<string, unknown>>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, body, options);
  }
  put<T = Record<string, unknown>>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, body, options);
  }
  patch<T = Record<string, unknown>>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PATCH', path, body, options);
  }
  delete<T = Record<string, unknown>>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, undefined, options);
  }
}

/** Sends n requests one after another and returns their statuses. */
export async function statuses(n: number, send: () => Promise<TestResponse<unknown>>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await send()).status);
  return out;
}

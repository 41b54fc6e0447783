import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutes } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import type { AnyRoute } from '../../src/http/route.js';
import type { JsonSchema } from '../../src/json-schema.js';
import { createTestAccount } from '../helpers/accounts-fixture.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import type { TestClient, TestResponse } from '../helpers/test-client.js';

/**
 * Property: whatever a client sends to a declared route, structurally valid or hostile, the API
 * answers without a 5xx, with the response its declaration documents for that status (the
 * TestClient checks every answer against the route's schema), and every error is the envelope
 * {success: false, mensagem, code}. Run counts are kept moderate (2 shared cores); a failure prints
 * fast-check's seed and the shrunk request to replay it.
 */

/** Routes left out: they end the credentials the runs use (logout, revoking a key). */
const LEFT_OUT = new Set(['post /auth/logout', 'delete /api-keys/:id']);
/** Routes that run scrypt at full cost on every request: fewer runs. */
const SCRYPT_ROUTES = new Set(['post /auth/register', 'post /auth/login', 'post /data/auth/register-user']);

const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '💥🚗',
  'Ωмега 中文 عربى',
  '\u202e\u200b',
  "' or 1=1 --",
  '%00',
  '%ZZ',
  '../../etc/passwd',
  '   ',
  '',
  '1e400',
  '-0',
  'NaN',
  '9'.repeat(40),
  'x'.repeat(5_000),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  nasty,
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, Number.MIN_VALUE),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(fc.integer(), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }),
  fc.integer({ min: 2, max: 60 }).map((depth) => {
    let value: unknown = 'fundo';
    for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
    return value;
  }),
);

/** Values of one JSON schema: mostly of its shape and bounds, at the edges too. */
function valid(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const type = Array.isArray(schema.type)
    ? (schema.type as string[])[0]
    : (schema.type as string | undefined);
  switch (type) {
    case 'integer': {
      const min = (schema.minimum as number | undefined) ?? -1_000;
      const max = (schema.maximum as number | undefined) ?? 100_000;
      return fc.oneof(
        fc.integer({ min, max: Math.min(max, min + 50) }),
        fc.constantFrom(min, max),
        fc.integer({ min, max }),
      );
    }
    case 'number': {
      const min = (schema.minimum as number | undefined) ?? -1e6;
      return fc.double({ min, max: 1e7, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'string': {
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (typeof schema.pattern === 'string' && /^\^\[0-9\]\{1,18\}\$$/.test(schema.pattern))
        return fc.integer({ min: 0, max: 1_000 }).map(String);
      if (typeof schema.pattern === 'string' && schema.pattern.includes('A-Za-z]{2}'))
        return fc.constantFrom('PT', 'de', 'ES', 'XX', 'fr');
      const maxLength = Math.min((schema.maxLength as number | undefined) ?? 60, 60);
      const minLength = Math.min((schema.minLength as number | undefined) ?? 0, maxLength);
      return fc.oneof(
        fc.string({ minLength, maxLength }),
        fc.constantFrom('1K0 615 301 AA', 'golf', 'Volkswagen', 'travão', 'pro', 'identificar-peca', 'pt'),
      );
    }
    case 'object':
      return objectOf(schema, 0);
    case 'array':
      return fc.array(valid((schema.items as JsonSchema | undefined) ?? {}), { maxLength: 3 });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** An object of the schema's properties, each present or not, each now and then hostile. */
function objectOf(schema: JsonSchema, hostileWeight: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const fields = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      hostileWeight
        ? fc.oneof(
            { arbitrary: valid(property), weight: 4 },
            { arbitrary: hostileValue, weight: hostileWeight },
          )
        : valid(property),
    ]),
  );
  return fc.record(fields, { requiredKeys: [] }) as fc.Arbitrary<Record<string, unknown>>;
}

/** A PNG of one pixel, as the identification tool takes images. */
const PIXEL_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Bodies the generic generator seldom hits (one search field of four, or alias, and filters; a real tool call). */
const plausibleSearch = fc
  .tuple(
    fc.constantFrom(
      'reference',
      'referencia',
      'vehicle_make',
      'marca_veiculo',
      'part_id',
      'parte_id',
      'text',
      'texto',
    ),
    fc.record(
      {
        vehicle_model: fc.constantFrom('Golf', 'golf vii', 'Série 3', 'x'),
        condition: fc.constantFrom('novo', 'usado_bom', 'para_pecas'),
        is_oem: fc.boolean(),
        is_aftermarket: fc.boolean(),
        country: fc.constantFrom('PT', 'de', 'ES'),
        price_min: fc.double({ min: 0, max: 500, noNaN: true }),
        price_max: fc.double({ min: 0, max: 5_000, noNaN: true }),
        page: fc.integer({ min: 1, max: 120 }),
        per_page: fc.integer({ min: 1, max: 100 }),
        search_token: fc.constantFrom('st1.invalido', 'x'.repeat(512)),
      },
      { requiredKeys: [] },
    ),
  )
  .chain(([field, filters]) => {
    const values: Record<string, fc.Arbitrary<unknown>> = {
      reference: fc.constantFrom('1K0 615 301 AA', '1k0-615-301-aa', '09.9145.11', 'NADA-123', 'TRW DF4294'),
      vehicle_make: fc.constantFrom('Volkswagen', 'volkswagen', 'BMW', 'Škoda', 'Lada'),
      part_id: fc.integer({ min: 1, max: 12 }),
      text: fc.constantFrom('disco travão', 'pastilhas', 'frein', 'a', 'bremsscheibe vorne'),
    };
    const canonical =
      (
        {
          referencia: 'reference',
          marca_veiculo: 'vehicle_make',
          parte_id: 'part_id',
          texto: 'text',
        } as Record<string, string>
      )[field] ?? field;
    return values[canonical]!.map((value) => ({ [field]: value, ...filters }));
  });

const plausibleTool = fc.record({
  slug: fc.constantFrom('identificar-peca', 'nao-existe'),
  input: fc.record({
    image: fc.constantFrom(
      PIXEL_PNG,
      'data:image/png;base64,AAAA',
      'data:text/plain;base64,aGVsbG8=',
      'nada',
    ),
    description: fc.constantFrom('disco de travão 1K0-615-301-AA', '', 'x'.repeat(3_000), '\u0000'),
  }),
});

const PLAUSIBLE: Record<string, fc.Arbitrary<unknown>> = {
  'post /data/search': plausibleSearch,
  'post /data/search/stats': plausibleSearch,
  'post /tools/execute': plausibleTool,
};

/** The body of a request: an object of the route's fields, sometimes with extras or a field twice, or raw text. */
function bodyOf(
  route: AnyRoute,
): fc.Arbitrary<{ body?: unknown; raw?: string; headers?: Record<string, string> }> {
  const schema = route.body!;
  const structured = fc
    .tuple(
      objectOf(schema, 1),
      fc.option(fc.dictionary(fc.string({ maxLength: 12 }), hostileValue, { maxKeys: 2 }), {
        nil: undefined,
      }),
    )
    .map(([fields, extra]) => ({ body: extra ? { ...fields, ...extra } : fields }));
  const raw = fc
    .oneof(
      fc.constantFrom(
        '{"reference":"1K0 615 301 AA","reference":"outra"}',
        '{"reference":"a","referencia":"b"}',
        '{"part_id":1e400}',
        '{"price_min":-1e400,"part_id":3}',
        '{"part_id":3,"per_page":1e2}',
        '[1,2,3]',
        '"texto"',
        'null',
        '42',
        '{"unterminated":',
        '{}',
        '',
        '\u0000',
        '{"text":"\\u0000"}',
        '{"text":"\\ud800"}',
      ),
      fc.integer({ min: 30, max: 20_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
      fc.integer({ min: 30, max: 5_000 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.constant(`{"text":"${'x'.repeat(1_100_000)}"}`),
    )
    .map((text) => ({ raw: text }));
  const wrongType = fc.constantFrom<GeneratedRequest['input']>(
    { raw: 'reference=1K0', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
    { raw: '{"part_id":3}', headers: { 'Content-Type': 'text/plain' } },
    { raw: 'not gzip at all', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' } },
    { raw: '{"part_id":3}', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'zstd-x' } },
  );
  const wellFormed = (PLAUSIBLE[`${route.method} ${route.path}`] ?? objectOf(schema, 0)).map((fields) => ({
    body: fields,
  }));
  return fc.oneof(
    { arbitrary: wellFormed, weight: 5 },
    { arbitrary: structured, weight: 4 },
    { arbitrary: raw, weight: 3 },
    { arbitrary: wrongType, weight: 1 },
  );
}

/** A query string of the route's parameters, sometimes repeated, hostile or unknown; raw, so malformed escapes go too. */
function queryOf(route: AnyRoute): fc.Arbitrary<string> {
  const properties = Object.entries(((route.query ?? {}).properties ?? {}) as Record<string, JsonSchema>);
  const names = [...properties.map(([name]) => name), ...properties.map(([name]) => name), 'desconhecido'];
  const schemaOf = new Map(properties);
  const value = (name: string) =>
    fc.oneof(
      {
        arbitrary: valid(schemaOf.get(name) ?? { type: 'string' }).map((v) => encodeURIComponent(String(v))),
        weight: 4,
      },
      {
        arbitrary: hostileValue.map((v) =>
          encodeURIComponent(
            typeof v === 'string' ? v.replace(/[\ud800-\udfff]/g, '') : (JSON.stringify(v) ?? ''),
          ),
        ),
        weight: 1,
      },
      {
        arbitrary: fc.constantFrom('%ZZ', '%00', '%E0%A4%A', '%ud800', '1e400', '0x10', '-1', '%20%20'),
        weight: 1,
      },
    );
  return fc
    .array(
      fc.constantFrom(...names).chain((name) => value(name).map((v) => `${name}=${v}`)),
      { maxLength: 5 },
    )
    .map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
}

/** The route's path with each parameter filled: mostly plausible, sometimes hostile or malformed. */
function pathOf(route: AnyRoute): fc.Arbitrary<string> {
  const segment = fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 200 }).map(String), weight: 3 },
    { arbitrary: fc.constantFrom('volkswagen', 'golf%20vii', 'Škoda'), weight: 2 },
    {
      arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent),
      weight: 2,
    },
    {
      arbitrary: fc.constantFrom(
        '%ZZ',
        '%00',
        '%E0%A4%A',
        '9'.repeat(30),
        '1e3',
        '-5',
        '%2F..%2F',
        'x'.repeat(3_000),
      ),
      weight: 2,
    },
  );
  const names = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  return fc.tuple(...names.map(() => segment)).map((values) => {
    let path = route.path;
    names.forEach((name, i) => (path = path.replace(`:${name}`, values[i]!)));
    return path;
  });
}

interface GeneratedRequest {
  path: string;
  query: string;
  input: { body?: unknown; raw?: string; headers?: Record<string, string> };
  idempotencyKey: string | undefined;
}

let app: TestApp;
let routes: AnyRoute[];

beforeAll(async () => {
  app = await startTestApp({ clock: new ManualClock(new Date('2026-11-22T12:00:00Z')) });
  await loadStockFixture(app.services.db);
  routes = declaredRoutes(app.services).filter((r) => !LEFT_OUT.has(`${r.method} ${r.path}`));
});
afterAll(() => app?.close());

/** A client with the credentials the route asks for, of a fresh account (so no run spoils another's). */
async function clientFor(route: AnyRoute): Promise<TestClient> {
  if (route.auth === 'public') return app.api;
  const account = await createTestAccount(app.services.db, app.clock, { credits: 1_000 });
  return route.auth === 'bearer' ? app.api.withBearer(account.bearer) : app.api.withApiKey(account.apiKey);
}

function expectNoServerErrorAndEnvelope(response: TestResponse, what: string): void {
  expect(response.status, `${what} → ${response.status} ${JSON.stringify(response.body)}`).toBeLessThan(500);
  if (response.status >= 400) {
    const body = response.body as { success?: unknown; mensagem?: unknown; code?: unknown };
    expect(body.success, what).toBe(false);
    expect(typeof body.mensagem === 'string' && body.mensagem.length > 0, what).toBe(true);
    expect(body.code, what).toMatch(/^[A-Z][A-Z0-9_]*$/);
  }
}

describe('every declared route, any input', () => {
  const bodyRoutes = () => routes.filter((r) => r.body && !SCRYPT_ROUTES.has(`${r.method} ${r.path}`));
  const request = (route: AnyRoute) =>
    fc.record({
      path: pathOf(route),
      query: queryOf(route),
      input: route.body ? bodyOf(route) : fc.constant({}),
      idempotencyKey: route.idempotent
        ? fc.option(
            fc.oneof(fc.uuid(), fc.constant('repetida'), fc.string({ unit: 'binary-ascii', maxLength: 300 })),
            {
              nil: undefined,
            },
          )
        : fc.constant(undefined),
    });

  async function send(route: AnyRoute, generated: GeneratedRequest): Promise<void> {
    const client = await clientFor(route);
    const { path, query, input, idempotencyKey } = generated;
    const headers: Record<string, string> = { ...input.headers };
    // what fetch itself refuses to send (control characters, spaces at the ends) is not a request
    if (idempotencyKey !== undefined)
      headers['Idempotency-Key'] = [...idempotencyKey]
        .filter((c) => c >= ' ' && c !== '\x7f')
        .join('')
        .trim();
    const what = `${route.method.toUpperCase()} ${path}${query} ${input.raw !== undefined ? `raw ${JSON.stringify(input.raw.slice(0, 200))}` : JSON.stringify(input.body)?.slice(0, 300)}`;
    const response = await client.request(route.method.toUpperCase(), path + query, input.body, {
      headers,
      ...(input.raw !== undefined ? { rawBody: input.raw } : {}),
    });
    expectNoServerErrorAndEnvelope(response, what);
  }

  it('body routes: no 5xx, declared shapes, the error envelope', async () => {
    const candidates = bodyRoutes();
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...candidates)
          .chain((route) => request(route).map((generated) => ({ route, generated }))),
        async ({ route, generated }) => send(route, generated),
      ),
      { numRuns: 250 },
    );
  });

  it('routes that hash passwords (scrypt at full cost): the same, fewer runs', async () => {
    const candidates = routes.filter((r) => SCRYPT_ROUTES.has(`${r.method} ${r.path}`));
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...candidates)
          .chain((route) => request(route).map((generated) => ({ route, generated }))),
        async ({ route, generated }) => send(route, generated),
      ),
      { numRuns: 20 },
    );
  });

  it('query and path routes: no 5xx, declared shapes, the error envelope', async () => {
    const candidates = routes.filter((r) => !r.body && (r.query || r.params));
    expect(candidates.length).toBeGreaterThan(10);
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...candidates)
          .chain((route) => request(route).map((generated) => ({ route, generated }))),
        async ({ route, generated }) => send(route, generated),
      ),
      { numRuns: 300 },
    );
  });
});

import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { route } from '../../src/http/route.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const explode = route({
  method: 'get',
  path: '/__test/explode',
  auth: 'public',
  summary: 'throws',
  tags: ['test'],
  responses: { 200: { description: 'never' } },
  handler: async () => {
    throw new Error('relation "secret_table" does not exist at /srv/app.ts:12');
  },
});

const echo = route({
  method: 'post',
  path: '/__test/echo',
  auth: 'public',
  // as large as the largest route's (tools): deep nesting must be refused by depth, not by size
  bodyLimitKb: 1024,
  summary: 'echo',
  tags: ['test'],
  body: Type.Object({ n: Type.Integer() }, { additionalProperties: false }),
  responses: { 200: { description: 'echo', schema: { type: 'object' } } },
  handler: async ({ body }) => ({ body: { success: true, n: body.n } }),
});

describe('HTTP skeleton', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ app: { extraRoutes: [explode, echo] } });
  });
  afterAll(() => app.close());

  it('answers /health and /ready with a request id and API version', async () => {
    const health = await app.api.get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ success: true, status: 'ok' });
    expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(health.headers.get('x-api-version')).toBe('2.0');
    const ready = await app.api.get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toHaveProperty('postgres');
  });

  it('keeps a well-formed incoming X-Request-Id', async () => {
    const res = await app.api.get('/health', { headers: { 'X-Request-Id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });

  it('serves paths under /v2 too', async () => {
    expect((await app.api.get('/v2/health')).status).toBe(200);
  });

  it('404 envelope for an unknown route', async () => {
    const res = await app.api.get('/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      success: false,
      code: 'ROUTE_NOT_FOUND',
      mensagem: 'Rota não encontrada: GET /nope',
    });
  });

  it('404 names the path as sent, /v2 prefix included', async () => {
    const res = await app.api.get('/v2/v2/health', { unchecked: true });
    expect(res.status).toBe(404);
    expect(res.body.mensagem).toBe('Rota não encontrada: GET /v2/v2/health');
  });

  it('415 for a body that is not JSON, instead of reading it as an empty object', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await app.api.post('/__test/echo', undefined, {
        rawBody: '{"n": 1}',
        headers: { 'Content-Type': type },
      });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    // a POST without a body (Content-Length: 0, as fetch, axios or curl -d '' send it) is not a 415
    const empty = await app.api.post('/__test/echo', undefined, {
      rawBody: '',
      headers: { 'Content-Type': '' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('VALIDATION_ERROR');
    // a +json type the parser does not read is refused, not validated as "{}"
    const merge = await app.api.post('/__test/echo', undefined, {
      rawBody: '{"n": 1}',
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(merge.status).toBe(415);
    const json = await app.api.post('/__test/echo', undefined, {
      rawBody: '{"n": 1}',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(json.body).toEqual({ success: true, n: 1 });
  });

  it('a body that does not decompress as announced is a 400; an unknown Content-Encoding a 415', async () => {
    const garbage = await fetch(`${app.api.baseUrl}/__test/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: 'not gzip at all',
    });
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ success: false, code: 'INVALID_CONTENT_ENCODING' });
    const brotli = await fetch(`${app.api.baseUrl}/__test/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'br' },
      body: 'not brotli either',
    });
    expect(brotli.status).toBe(400);
    expect(await brotli.json()).toMatchObject({ success: false, code: 'INVALID_CONTENT_ENCODING' });
    const unknown = await fetch(`${app.api.baseUrl}/__test/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'zstd' },
      body: '{"n": 1}',
    });
    expect(unknown.status).toBe(415);
    expect(await unknown.json()).toMatchObject({ success: false, code: 'UNSUPPORTED_CONTENT_ENCODING' });
  });

  it('400 for text Postgres cannot store (NUL, a lone surrogate) and for infinite numbers', async () => {
    const nul = await app.api.post('/__test/echo', undefined, { rawBody: '{"n": 1, "s": "a\\u0000b"}' });
    expect(nul.status).toBe(400);
    expect(nul.body).toMatchObject({ code: 'INVALID_CHARACTERS' });
    expect(nul.body.mensagem).toContain('corpo.s');
    const surrogate = await app.api.post('/__test/echo', undefined, {
      rawBody: '{"n": 1, "x": ["\\ud800"]}',
    });
    expect(surrogate.body).toMatchObject({ code: 'INVALID_CHARACTERS' });
    expect(surrogate.body.mensagem).toContain('corpo.x.0');
    const pair = await app.api.post('/__test/echo', undefined, {
      rawBody: '{"n": 1, "x": "\\ud83d\\ude00"}',
    });
    expect(pair.body.code).toBe('VALIDATION_ERROR'); // a well-formed emoji: only "x" is unknown
    const deep = await app.api.post('/__test/echo', undefined, {
      rawBody: `{"n": 1, "x": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
    });
    expect(deep.status).toBe(400);
    expect(deep.body.mensagem).toContain('aninhado');
    const infinite = await app.api.post('/__test/echo', undefined, { rawBody: '{"n": 1e400}' });
    expect(infinite.status).toBe(400);
    expect(infinite.body.mensagem).toBe('O campo corpo.n deve ser um número finito.');
    const query = await app.api.get('/data/catalog/fuels?q=a%00b');
    expect(query.status).toBe(400);
    expect(query.body).toMatchObject({ code: 'INVALID_CHARACTERS' });
  });

  it('400 envelope for malformed JSON', async () => {
    const res = await app.api.post('/__test/echo', undefined, { rawBody: '{"n": 1,' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'INVALID_JSON' });
    expect(res.body.mensagem).toMatch(/JSON/);
  });

  it('400 envelope naming the field for a schema violation', async () => {
    const res = await app.api.post('/__test/echo', { n: 'x', extra: 1 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.mensagem).toContain('corpo.n deve ser número inteiro');
    expect(res.body.mensagem).toContain('corpo.extra não é reconhecido');
  });

  it('413 envelope for a body over the route limit', async () => {
    const res = await app.api.post('/__test/echo', undefined, {
      rawBody: JSON.stringify({ n: 1, pad: 'x'.repeat(1_100_000) }),
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('500 envelope without stack or SQL for an unexpected exception', async () => {
    const res = await app.api.get('/__test/explode');
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(res.body)).not.toMatch(/secret_table|app\.ts|at /);
  });

  it('serves a valid OpenAPI 3.1 document', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const res = await app.api.get('/openapi.json');
    expect(res.status).toBe(200);
    const validator = new Validator();
    const result = await validator.validate(
      res.body as unknown as Parameters<InstanceType<typeof Validator>['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(Object.keys(res.body.paths as object)).toContain('/ready');
    const servers = (res.body.servers as { url: string }[]).map((s) => s.url);
    expect(servers.some((url) => url.endsWith('/v2'))).toBe(true);
    const echo = (res.body.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)[
      '/__test/echo'
    ]!.post!;
    expect(Object.keys(echo.responses)).toContain('415');
  });
});

describe('readiness with Postgres down', () => {
  it('/ready answers 503 naming postgres when the database is unreachable', async () => {
    const unreachable = await openDatabase({
      url: 'postgres://postgres@127.0.0.1:1/none',
      connectTimeoutMs: 500,
    });
    const app = await startTestApp({
      database: { kind: 'postgres', handle: unreachable, url: null, drop: async () => {} },
    });
    try {
      const res = await app.api.get('/ready');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, code: 'NOT_READY' });
      expect(res.body.mensagem).toContain('postgres');
      expect((await app.api.get('/health')).status).toBe(200);
      const search = await app.api.withApiKey('psk_whatever').post('/data/search', { reference: 'X' });
      expect(search.status).toBe(503);
      expect(search.body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
      expect(search.headers.get('retry-after')).toBe('5');
    } finally {
      await app.close();
      await unreachable.close();
    }
  });
});

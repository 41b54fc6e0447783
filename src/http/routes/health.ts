import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { route, type AnyRoute } from '../route.js';
import { HttpError } from '../errors.js';

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

const checkSchema = {
  type: 'object',
  required: ['success', 'status', 'checks'],
  properties: {
    success: { type: 'boolean' },
    status: { enum: ['ok', 'unavailable'] },
    checks: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['ok', 'ms'],
        properties: { ok: { type: 'boolean' }, ms: { type: 'number' }, error: { type: 'string' } },
      },
    },
  },
};

const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: ReadinessCheck): Promise<{ ok: boolean; ms: number; error?: string }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check.check(),
      new Promise(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error('sem resposta a tempo')), CHECK_TIMEOUT_MS)),
      ),
    ]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch {
    return { ok: false, ms: Math.round(performance.now() - started), error: 'indisponível' };
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(checks: ReadinessCheck[], openApi: () => OpenAPIObject): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/health',
      auth: 'public',
      rateLimit: 'none',
      summary: 'O processo está vivo',
      tags: ['Sistema'],
      responses: {
        200: {
          description: 'Vivo',
          schema: {
            type: 'object',
            required: ['success', 'status'],
            properties: { success: { const: true }, status: { const: 'ok' } },
          },
        },
      },
      handler: async () => ({ body: { success: true, status: 'ok' } }),
    }),
    route({
      method: 'get',
      path: '/ready',
      auth: 'public',
      rateLimit: 'none',
      summary: 'As dependências (Postgres, Redis, motor de pesquisa) respondem',
      tags: ['Sistema'],
      errors: [503],
      responses: { 200: { description: 'Pronto', schema: checkSchema } },
      handler: async () => {
        const results = await Promise.all(checks.map(async (c) => [c.name, await runCheck(c)] as const));
        const ok = results.every(([, r]) => r.ok);
        const body = { success: ok, status: ok ? 'ok' : 'unavailable', checks: Object.fromEntries(results) };
        if (ok) return { body };
        const failed = results.filter(([, r]) => !r.ok).map(([name]) => name);
        throw new HttpError(503, 'NOT_READY', `Serviço não está pronto: ${failed.join(', ')} indisponível.`, {
          checks: body.checks,
        });
      },
    }),
    route({
      method: 'get',
      path: '/openapi.json',
      auth: 'public',
      rateLimit: 'none',
      summary: 'Documento OpenAPI 3.1 desta API',
      tags: ['Sistema'],
      responses: {
        200: { description: 'Documento OpenAPI', schema: { type: 'object', required: ['openapi', 'paths'] } },
      },
      handler: async () => ({ body: openApi() }),
    }),
  ];
}

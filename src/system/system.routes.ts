import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { ServiceError } from '../errors.js';
import { route, type AnyRoute } from '../http/route.js';
import type { Readiness } from './readiness.js';
import { healthSchema, readinessSchema } from './system.views.js';

/** The process alive (/health), its dependencies answering (/ready), and the API's own document. */
export function systemRoutes({
  readiness,
  openApi,
}: {
  readiness: Readiness;
  /** the OpenAPI document of every declared route (built once, on first request) */
  openApi: () => OpenAPIObject;
}): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/health',
      auth: 'public',
      rateLimit: 'none',
      summary: 'O processo está vivo',
      tags: ['Sistema'],
      responses: { 200: { description: 'Vivo', schema: healthSchema } },
      handler: async () => ({ body: { success: true, status: 'ok' } }),
    }),
    route({
      method: 'get',
      path: '/ready',
      auth: 'public',
      rateLimit: 'ready',
      summary: 'As dependências (Postgres, Redis, motor de pesquisa) respondem',
      description:
        'Verificadas no máximo uma vez por segundo por processo (quem pergunta nesse segundo recebe a mesma resposta); limitado por IP (READY_RATE_LIMIT_PER_MINUTE).',
      tags: ['Sistema'],
      errors: [503],
      responses: { 200: { description: 'Pronto', schema: readinessSchema } },
      handler: async () => {
        const results = await readiness();
        const ok = results.every(([, r]) => r.ok);
        const body = { success: ok, status: ok ? 'ok' : 'unavailable', checks: Object.fromEntries(results) };
        if (ok) return { body };
        const failed = results.filter(([, r]) => !r.ok).map(([name]) => name);
        throw new ServiceError('NOT_READY', `Serviço não está pronto: ${failed.join(', ')} indisponível.`, {
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

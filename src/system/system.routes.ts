import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { ServiceError } from '../errors.js';
import { route, type AnyRoute, type ApiTag } from '../http/route.js';
import type { Readiness } from './readiness.js';
import { healthSchema, readinessSchema, systemSchemaNames } from './system.views.js';

const TAG: ApiTag = {
  name: 'System',
  description: 'For load balancers, monitoring and tools: liveness, readiness and this document.',
};

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
      operationId: 'getHealth',
      summary: 'The process is alive',
      description: 'Answers while the process runs, whatever its dependencies; not rate-limited.',
      tags: [TAG],
      schemas: systemSchemaNames,
      responses: { 200: { description: 'Alive', schema: healthSchema } },
      handler: async () => ({ body: { success: true, status: 'ok' } }),
    }),
    route({
      method: 'get',
      path: '/ready',
      auth: 'public',
      rateLimit: 'ready',
      operationId: 'getReadiness',
      summary: 'The dependencies answer (PostgreSQL, Redis, the search engine)',
      description:
        'Checked at most once a second per process (whoever asks in that second gets the same answer); limited per IP address (READY_RATE_LIMIT_PER_MINUTE). A dependency down: 503 `NOT_READY` with each check in `checks`; while the search engine’s circuit breaker is open, too.',
      tags: [TAG],
      schemas: systemSchemaNames,
      errors: ['NOT_READY'],
      responses: { 200: { description: 'Ready', schema: readinessSchema } },
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
      operationId: 'getOpenApiDocument',
      summary: 'This API’s OpenAPI 3.1 document',
      description:
        'What clients are generated from (see docs/api.md: @hey-api/openapi-ts for TypeScript, openapi-generator for Java); rendered at /docs.',
      tags: [TAG],
      responses: {
        200: {
          description: 'The OpenAPI document',
          schema: {
            type: 'object',
            required: ['openapi', 'paths'],
            additionalProperties: true,
            description: 'An OpenAPI 3.1 document.',
          },
        },
      },
      handler: async () => ({ body: openApi() }),
    }),
  ];
}

import { route, type AnyRoute } from '../http/route.js';
import { successBody } from '../http/success-body.js';
import { TAG_ACCOUNT } from './account.routes.js';
import type { ApiKeysService } from './api-keys.js';
import { ApiKeyChangesSchema, ApiKeyIdSchema, NewApiKeySchema } from './api-keys.schemas.js';
import { apiKeyView, apiKeyViewSchema, createdApiKeySchema, createdKeyView } from './api-keys.views.js';

/** The account's API keys, managed with a Bearer session. */
export function apiKeysRoutes({ apiKeys }: { apiKeys: ApiKeysService }): AnyRoute[] {
  return [
    route({
      method: 'post',
      path: '/api-keys',
      auth: 'bearer',
      summary: 'Cria uma chave de API (mostrada uma única vez)',
      description:
        'Só o SHA-256 da chave é guardado: se a perder, revogue-a e crie outra. Os limites pedidos têm de caber no plano da conta (400 LIMIT_ABOVE_PLAN); há um máximo de chaves ativas por conta (409 API_KEY_LIMIT_REACHED).',
      tags: [TAG_ACCOUNT],
      body: NewApiKeySchema,
      responses: {
        201: { description: 'Chave criada', schema: successBody({ api_key: createdApiKeySchema }) },
      },
      errors: [409],
      async handler({ principal, body }) {
        const key = await apiKeys.issue(principal, body);
        return { status: 201, body: { success: true, api_key: createdKeyView(key) } };
      },
    }),
    route({
      method: 'get',
      path: '/api-keys',
      auth: 'bearer',
      summary: 'Lista as chaves de API da conta (sem a chave nem o seu hash)',
      tags: [TAG_ACCOUNT],
      responses: {
        200: {
          description: 'As chaves, da mais recente para a mais antiga',
          schema: successBody({ api_keys: { type: 'array', items: apiKeyViewSchema } }),
        },
      },
      async handler({ principal }) {
        const keys = await apiKeys.list(principal);
        return { body: { success: true, api_keys: keys.map(apiKeyView) } };
      },
    }),
    route({
      method: 'patch',
      path: '/api-keys/:id',
      auth: 'bearer',
      summary: 'Altera o nome e os limites de uma chave (dentro do plano da conta)',
      tags: [TAG_ACCOUNT],
      params: ApiKeyIdSchema,
      body: ApiKeyChangesSchema,
      responses: {
        200: { description: 'Chave alterada', schema: successBody({ api_key: apiKeyViewSchema }) },
      },
      errors: [404],
      async handler({ principal, params, body }) {
        const key = await apiKeys.update(principal, params.id, body);
        return { body: { success: true, api_key: apiKeyView(key) } };
      },
    }),
    route({
      method: 'delete',
      path: '/api-keys/:id',
      auth: 'bearer',
      summary: 'Revoga uma chave: o pedido seguinte com ela recebe 401',
      tags: [TAG_ACCOUNT],
      params: ApiKeyIdSchema,
      responses: {
        200: { description: 'Chave revogada', schema: successBody({ api_key: apiKeyViewSchema }) },
      },
      errors: [404],
      async handler({ principal, params }) {
        const key = await apiKeys.revoke(principal, params.id);
        return { body: { success: true, api_key: apiKeyView(key) } };
      },
    }),
  ];
}

import { route, type AnyRoute, type ApiTag } from '../http/route.js';
import { successBody } from '../http/success-body.js';
import type { ApiKeysService } from './api-keys.js';
import { ApiKeyChangesSchema, ApiKeyIdSchema, NewApiKeySchema } from './api-keys.schemas.js';
import { apiKeyView, apiKeyViewSchema, createdApiKeySchema, createdKeyView } from './api-keys.views.js';

const TAG: ApiTag = {
  name: 'API keys',
  description:
    'The account’s API keys (`X-API-Key`), managed with a Bearer session: a key is shown once, when created, and kept only as a hash; each may have limits of its own within the account’s plan; a revoked key gets 401 at once on every API process.',
};

const apiKeyResult = successBody({ api_key: apiKeyViewSchema });
const createdApiKeyResult = successBody({ api_key: createdApiKeySchema });
const apiKeyList = successBody({ api_keys: { type: 'array', items: apiKeyViewSchema } });

/** The keys' shapes by the names generated clients give them. */
export const apiKeySchemaNames = {
  ApiKey: apiKeyViewSchema,
  CreatedApiKey: createdApiKeySchema,
  NewApiKey: NewApiKeySchema,
  ApiKeyChanges: ApiKeyChangesSchema,
  ApiKeyResult: apiKeyResult,
  CreatedApiKeyResult: createdApiKeyResult,
  ApiKeyListResult: apiKeyList,
};

/** The account's API keys, managed with a Bearer session. */
export function apiKeysRoutes({ apiKeys }: { apiKeys: ApiKeysService }): AnyRoute[] {
  return [
    route({
      method: 'post',
      path: '/api-keys',
      auth: 'bearer',
      operationId: 'createApiKey',
      summary: 'Create an API key (shown once)',
      description:
        'Only the key’s SHA-256 is kept: if it is lost, revoke it and create another. Its limits must fit in the account’s plan (400 `LIMIT_ABOVE_PLAN`); an account holds at most 20 live keys (409 `API_KEY_LIMIT_REACHED`).',
      tags: [TAG],
      schemas: apiKeySchemaNames,
      body: NewApiKeySchema,
      responses: {
        201: { description: 'The key, with the key itself', schema: createdApiKeyResult },
      },
      errors: ['LIMIT_ABOVE_PLAN', 'API_KEY_LIMIT_REACHED'],
      async handler({ principal, body }) {
        const key = await apiKeys.issue(principal, body);
        return { status: 201, body: { success: true, api_key: createdKeyView(key) } };
      },
    }),
    route({
      method: 'get',
      path: '/api-keys',
      auth: 'bearer',
      operationId: 'listApiKeys',
      summary: 'List the account’s API keys',
      description:
        'Every key of the account, revoked ones too, newest first: never the key itself nor its hash.',
      tags: [TAG],
      schemas: apiKeySchemaNames,
      responses: {
        200: { description: 'The keys, newest first', schema: apiKeyList },
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
      operationId: 'updateApiKey',
      summary: 'Change a key’s name or limits',
      description:
        'Limits within the account’s plan (400 `LIMIT_ABOVE_PLAN`); null removes a limit of the key’s own. Applied to the key’s next request on every API process.',
      tags: [TAG],
      schemas: apiKeySchemaNames,
      params: ApiKeyIdSchema,
      body: ApiKeyChangesSchema,
      responses: {
        200: { description: 'The key as changed', schema: apiKeyResult },
      },
      errors: ['LIMIT_ABOVE_PLAN', 'API_KEY_NOT_FOUND'],
      async handler({ principal, params, body }) {
        const key = await apiKeys.update(principal, params.id, body);
        return { body: { success: true, api_key: apiKeyView(key) } };
      },
    }),
    route({
      method: 'delete',
      path: '/api-keys/:id',
      auth: 'bearer',
      operationId: 'revokeApiKey',
      summary: 'Revoke a key',
      description:
        'The next request with the key gets 401 `INVALID_API_KEY`, on every API process. Revoking it again changes nothing.',
      tags: [TAG],
      schemas: apiKeySchemaNames,
      params: ApiKeyIdSchema,
      responses: {
        200: { description: 'The key, revoked', schema: apiKeyResult },
      },
      errors: ['API_KEY_NOT_FOUND'],
      async handler({ principal, params }) {
        const key = await apiKeys.revoke(principal, params.id);
        return { body: { success: true, api_key: apiKeyView(key) } };
      },
    }),
  ];
}

import { getAccount, updateAccount, type AccountChanges, type AccountRow } from '../../accounts/accounts.js';
import {
  issueApiKey,
  listApiKeys,
  revokeApiKey,
  updateApiKey,
  type ApiKeyChanges,
  type ApiKeyView,
  type CreatedApiKey,
  type NewApiKey,
} from '../../accounts/api-keys.js';
import { assertWithinPlan, type AccountPlan } from '../../accounts/plans.js';
import { revokeSession } from '../../accounts/sessions.js';
import type { NewAccount } from '../../accounts/accounts.js';
import type { Services } from '../../services.js';
import { legacyRoute, type AnyRoute } from '../route.js';

const TAG_AUTH = 'Autenticação';
const TAG_ACCOUNT = 'Conta e chaves de API';

const dateTime = { type: 'string', format: 'date-time' };
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };
const limitValue = (description: string) => ({
  type: ['integer', 'null'],
  minimum: 1,
  maximum: 1_000_000,
  description,
});

const accountSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'email', 'name', 'credits', 'daily_credit_limit', 'created_at'],
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    name: { type: ['string', 'null'] },
    credits: { type: 'integer', minimum: 0 },
    daily_credit_limit: { type: ['integer', 'null'], description: 'null = sem limite diário' },
    created_at: dateTime,
  },
};

const keyLimitProperties = {
  rate_limit_per_minute: limitValue(
    'Pedidos por minuto desta chave, no máximo o do plano da conta; null = só o limite da conta',
  ),
  rate_limit_per_hour: limitValue(
    'Pedidos por hora desta chave, no máximo o do plano da conta; null = só o limite da conta',
  ),
  daily_credit_limit: limitValue(
    'Créditos que esta chave pode gastar por dia (UTC), no máximo os do plano; null = sem limite próprio',
  ),
};

const planSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rate_limit_per_minute', 'rate_limit_per_hour', 'daily_credits'],
  description:
    'O plano da conta, definido pelo fornecedor: limites de toda a conta (todas as chaves e sessões juntas); os limites de cada chave e o limite diário da conta só podem ser iguais ou menores',
  properties: {
    rate_limit_per_minute: { type: 'integer', minimum: 1 },
    rate_limit_per_hour: { type: 'integer', minimum: 1 },
    daily_credits: { type: ['integer', 'null'], minimum: 1, description: 'null = sem limite diário' },
  },
};

const apiKeyViewProperties = {
  id: { type: 'string' },
  name: { type: 'string' },
  prefix: { type: 'string', description: 'Início da chave, para a reconhecer' },
  ...keyLimitProperties,
  created_at: dateTime,
  last_used_at: nullableDateTime,
  revoked_at: nullableDateTime,
};

const apiKeyViewSchema = {
  type: 'object',
  additionalProperties: false,
  required: Object.keys(apiKeyViewProperties),
  properties: apiKeyViewProperties,
};

const createdApiKeySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['key', ...Object.keys(apiKeyViewProperties)],
  properties: {
    key: { type: 'string', description: 'A chave completa: mostrada apenas nesta resposta' },
    ...apiKeyViewProperties,
  },
};

const credentialsBody = (passwordMin: number) => ({
  type: 'object',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', minLength: 3, maxLength: 254 },
    password: { type: 'string', minLength: passwordMin, maxLength: 256 },
    ...(passwordMin > 1 ? { name: { type: ['string', 'null'], maxLength: 100 } } : {}),
  },
});
const registerBody = credentialsBody(10);
const loginBody = credentialsBody(1);

const envelope = (properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required: ['success', ...Object.keys(properties)],
  properties: { success: { const: true }, ...properties },
});

const keyIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', pattern: '^[0-9]{1,18}$', description: 'Id da chave (numérico)' } },
};

const iso = (date: Date | null) => (date ? date.toISOString() : null);

const accountView = (a: AccountRow) => ({ ...a, created_at: iso(a.created_at) });

const planView = (plan: AccountPlan) => ({
  rate_limit_per_minute: plan.perMinute,
  rate_limit_per_hour: plan.perHour,
  daily_credits: plan.dailyCredits,
});

const accountWithPlan = envelope({ account: accountSchema, plan: planSchema });

const apiKeyView = (k: ApiKeyView) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  rate_limit_per_minute: k.rate_limit_per_minute,
  rate_limit_per_hour: k.rate_limit_per_hour,
  daily_credit_limit: k.daily_credit_limit,
  created_at: iso(k.created_at),
  last_used_at: iso(k.last_used_at),
  revoked_at: iso(k.revoked_at),
});

const createdKeyView = (k: CreatedApiKey) => ({
  key: k.key,
  ...apiKeyView({ ...k, last_used_at: null, revoked_at: null }),
});

export function accountsRoutes(services: Services): AnyRoute[] {
  const { db, clock } = services;
  return [
    legacyRoute<NewAccount, unknown, unknown, 'public'>({
      method: 'post',
      path: '/auth/register',
      auth: 'public',
      summary: 'Regista uma conta nova (50 créditos grátis)',
      description:
        'O e-mail é normalizado (espaços removidos, minúsculas). Palavra-passe com pelo menos 10 caracteres. No máximo 5 registos por hora a partir do mesmo IP.',
      tags: [TAG_AUTH],
      body: registerBody,
      responses: { 201: { description: 'Conta criada', schema: envelope({ account: accountSchema }) } },
      errors: [409],
      async handler({ body, ip }) {
        const account = await services.registration.register(body, ip);
        return { status: 201, body: { success: true, account: accountView(account) } };
      },
    }),
    legacyRoute<{ email: string; password: string }, unknown, unknown, 'public'>({
      method: 'post',
      path: '/auth/login',
      auth: 'public',
      summary: 'Inicia sessão e devolve um token Bearer válido 30 dias',
      description:
        'Após 10 tentativas falhadas para o mesmo e-mail a partir do mesmo IP em 15 minutos, as seguintes recebem 429 até a janela passar.',
      tags: [TAG_AUTH],
      body: loginBody,
      responses: {
        200: {
          description: 'Sessão iniciada',
          schema: envelope({
            access_token: { type: 'string' },
            token_type: { const: 'Bearer' },
            expires_at: dateTime,
          }),
        },
      },
      errors: [401],
      async handler({ body, ip }) {
        const session = await services.login.login(body.email, body.password, ip);
        return {
          body: {
            success: true,
            access_token: session.token,
            token_type: 'Bearer',
            expires_at: session.expiresAt.toISOString(),
          },
        };
      },
    }),
    legacyRoute<unknown, unknown, unknown, 'bearer'>({
      method: 'post',
      path: '/auth/logout',
      auth: 'bearer',
      summary: 'Termina a sessão: o token Bearer apresentado deixa de ser aceite',
      tags: [TAG_AUTH],
      responses: { 200: { description: 'Sessão terminada', schema: envelope({}) } },
      async handler({ principal }) {
        await revokeSession(db, principal.sessionId!, clock.now());
        await services.credentials.changed({ sessionId: principal.sessionId! });
        return { body: { success: true } };
      },
    }),
    legacyRoute<NewAccount, unknown, unknown, 'public'>({
      method: 'post',
      path: '/data/auth/register-user',
      auth: 'public',
      summary: 'Regista um utilizador da API: conta (50 créditos) e primeira chave de API num só passo',
      description:
        'Para integrações servidor-a-servidor. A chave é mostrada apenas nesta resposta; guarde-a. Mesmas regras de validação e limite por IP que /auth/register.',
      tags: [TAG_AUTH],
      body: registerBody,
      responses: {
        201: {
          description: 'Conta e chave criadas',
          schema: envelope({ account: accountSchema, api_key: createdApiKeySchema }),
        },
      },
      errors: [409],
      async handler({ body, ip }) {
        const { account, apiKey } = await services.registration.registerApiUser(body, ip);
        return {
          status: 201,
          body: { success: true, account: accountView(account), api_key: createdKeyView(apiKey) },
        };
      },
    }),
    legacyRoute<unknown, unknown, unknown, 'bearer'>({
      method: 'get',
      path: '/account',
      auth: 'bearer',
      summary: 'A conta do titular do token',
      tags: [TAG_ACCOUNT],
      responses: { 200: { description: 'A conta e o seu plano', schema: accountWithPlan } },
      async handler({ principal }) {
        const account = await getAccount(db, principal.accountId);
        return { body: { success: true, account: accountView(account), plan: planView(principal.plan) } };
      },
    }),
    legacyRoute<AccountChanges, unknown, unknown, 'bearer'>({
      method: 'patch',
      path: '/account',
      auth: 'bearer',
      summary: 'Altera o nome e o limite diário de créditos da conta',
      tags: [TAG_ACCOUNT],
      body: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: {
          name: { type: ['string', 'null'], maxLength: 100 },
          daily_credit_limit: limitValue(
            'Créditos que a conta pode gastar por dia (UTC), no máximo os do plano; null = só o limite do plano',
          ),
        },
      },
      responses: { 200: { description: 'Conta alterada', schema: accountWithPlan } },
      async handler({ principal, body }) {
        assertWithinPlan(principal.plan, { daily_credit_limit: body.daily_credit_limit });
        const changes = {
          ...body,
          ...(typeof body.name === 'string' ? { name: body.name.trim() || null } : {}),
        };
        const account = await updateAccount(db, principal.accountId, changes, clock.now());
        return { body: { success: true, account: accountView(account), plan: planView(principal.plan) } };
      },
    }),
    legacyRoute<NewApiKey, unknown, unknown, 'bearer'>({
      method: 'post',
      path: '/api-keys',
      auth: 'bearer',
      summary: 'Cria uma chave de API (mostrada uma única vez)',
      description:
        'Só o SHA-256 da chave é guardado: se a perder, revogue-a e crie outra. Os limites pedidos têm de caber no plano da conta (400 LIMIT_ABOVE_PLAN); há um máximo de chaves ativas por conta (409 API_KEY_LIMIT_REACHED).',
      tags: [TAG_ACCOUNT],
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 100, default: 'Chave de API' },
          ...keyLimitProperties,
        },
      },
      responses: { 201: { description: 'Chave criada', schema: envelope({ api_key: createdApiKeySchema }) } },
      errors: [409],
      async handler({ principal, body }) {
        const key = await issueApiKey(db, principal.accountId, body, {
          plan: principal.plan,
          maxKeys: services.config.maxApiKeysPerAccount,
          clock,
        });
        return { status: 201, body: { success: true, api_key: createdKeyView(key) } };
      },
    }),
    legacyRoute<unknown, unknown, unknown, 'bearer'>({
      method: 'get',
      path: '/api-keys',
      auth: 'bearer',
      summary: 'Lista as chaves de API da conta (sem a chave nem o seu hash)',
      tags: [TAG_ACCOUNT],
      responses: {
        200: {
          description: 'As chaves, da mais recente para a mais antiga',
          schema: envelope({ api_keys: { type: 'array', items: apiKeyViewSchema } }),
        },
      },
      async handler({ principal }) {
        const keys = await listApiKeys(db, principal.accountId);
        return { body: { success: true, api_keys: keys.map(apiKeyView) } };
      },
    }),
    legacyRoute<ApiKeyChanges, unknown, { id: string }, 'bearer'>({
      method: 'patch',
      path: '/api-keys/:id',
      auth: 'bearer',
      summary: 'Altera o nome e os limites de uma chave (dentro do plano da conta)',
      tags: [TAG_ACCOUNT],
      params: keyIdParams,
      body: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: { name: { type: 'string', minLength: 1, maxLength: 100 }, ...keyLimitProperties },
      },
      responses: { 200: { description: 'Chave alterada', schema: envelope({ api_key: apiKeyViewSchema }) } },
      errors: [404],
      async handler({ principal, params, body }) {
        const key = await updateApiKey(db, principal.accountId, params.id, body, principal.plan);
        await services.credentials.changed({ apiKeyId: key.id });
        return { body: { success: true, api_key: apiKeyView(key) } };
      },
    }),
    legacyRoute<unknown, unknown, { id: string }, 'bearer'>({
      method: 'delete',
      path: '/api-keys/:id',
      auth: 'bearer',
      summary: 'Revoga uma chave: o pedido seguinte com ela recebe 401',
      tags: [TAG_ACCOUNT],
      params: keyIdParams,
      responses: { 200: { description: 'Chave revogada', schema: envelope({ api_key: apiKeyViewSchema }) } },
      errors: [404],
      async handler({ principal, params }) {
        const key = await revokeApiKey(db, principal.accountId, params.id, clock.now());
        await services.credentials.changed({ apiKeyId: key.id });
        return { body: { success: true, api_key: apiKeyView(key) } };
      },
    }),
  ];
}

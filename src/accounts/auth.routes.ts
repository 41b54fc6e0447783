import { route, type AnyRoute } from '../http/route.js';
import { successBody } from '../http/success-body.js';
import { accountSchema, accountView, dateTimeSchema } from './account.views.js';
import { createdApiKeySchema, createdKeyView } from './api-keys.views.js';
import { LoginSchema, NewAccountSchema } from './auth.schemas.js';
import type { LoginService } from './login.js';
import type { RegistrationService } from './registration.js';

const TAG_AUTH = 'Autenticação';

/** Registration (an account, or an account and its first API key), and Bearer sessions. */
export function authRoutes({
  registration,
  login,
}: {
  registration: RegistrationService;
  login: LoginService;
}): AnyRoute[] {
  return [
    route({
      method: 'post',
      path: '/auth/register',
      auth: 'public',
      summary: 'Regista uma conta nova (50 créditos grátis)',
      description:
        'O e-mail é normalizado (espaços removidos, minúsculas). Palavra-passe com pelo menos 10 caracteres. No máximo 5 registos por hora a partir do mesmo IP.',
      tags: [TAG_AUTH],
      body: NewAccountSchema,
      responses: { 201: { description: 'Conta criada', schema: successBody({ account: accountSchema }) } },
      errors: [409],
      async handler({ body, ip }) {
        const account = await registration.register(body, ip);
        return { status: 201, body: { success: true, account: accountView(account) } };
      },
    }),
    route({
      method: 'post',
      path: '/auth/login',
      auth: 'public',
      summary: 'Inicia sessão e devolve um token Bearer válido 30 dias',
      description:
        'Após 10 tentativas falhadas para o mesmo e-mail a partir do mesmo IP em 15 minutos, as seguintes recebem 429 até a janela passar.',
      tags: [TAG_AUTH],
      body: LoginSchema,
      responses: {
        200: {
          description: 'Sessão iniciada',
          schema: successBody({
            access_token: { type: 'string' },
            token_type: { const: 'Bearer' },
            expires_at: dateTimeSchema,
          }),
        },
      },
      errors: [401],
      async handler({ body, ip }) {
        const session = await login.login(body.email, body.password, ip);
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
    route({
      method: 'post',
      path: '/auth/logout',
      auth: 'bearer',
      summary: 'Termina a sessão: o token Bearer apresentado deixa de ser aceite',
      tags: [TAG_AUTH],
      responses: { 200: { description: 'Sessão terminada', schema: successBody({}) } },
      async handler({ principal }) {
        await login.logout(principal.sessionId!);
        return { body: { success: true } };
      },
    }),
    route({
      method: 'post',
      path: '/data/auth/register-user',
      auth: 'public',
      summary: 'Regista um utilizador da API: conta (50 créditos) e primeira chave de API num só passo',
      description:
        'Para integrações servidor-a-servidor. A chave é mostrada apenas nesta resposta; guarde-a. Mesmas regras de validação e limite por IP que /auth/register.',
      tags: [TAG_AUTH],
      body: NewAccountSchema,
      responses: {
        201: {
          description: 'Conta e chave criadas',
          schema: successBody({ account: accountSchema, api_key: createdApiKeySchema }),
        },
      },
      errors: [409],
      async handler({ body, ip }) {
        const { account, apiKey } = await registration.registerApiUser(body, ip);
        return {
          status: 201,
          body: { success: true, account: accountView(account), api_key: createdKeyView(apiKey) },
        };
      },
    }),
  ];
}

import { route, type AnyRoute, type ApiTag } from '../http/route.js';
import { successBody } from '../http/success-body.js';
import { accountSchema, accountView, dateTimeSchema } from './account.views.js';
import { createdApiKeySchema, createdKeyView } from './api-keys.views.js';
import { LoginSchema, NewAccountSchema } from './auth.schemas.js';
import type { LoginService } from './login.js';
import type { RegistrationService } from './registration.js';

const TAG: ApiTag = {
  name: 'Authentication',
  description:
    'Accounts and Bearer sessions: register (50 free credits), log in (a token valid 30 days), log out. `registerApiUser` gives an account and its first API key in one step, for server-to-server onboarding.',
};

const registered = successBody({ account: accountSchema });
const registeredApiUser = successBody({ account: accountSchema, api_key: createdApiKeySchema });
const session = successBody({
  access_token: { type: 'string', description: 'The Bearer token (`pst_…`), for `Authorization: Bearer`.' },
  token_type: { const: 'Bearer' },
  expires_at: { ...dateTimeSchema, description: 'When the session ends: 30 days after the login.' },
});

/** Authentication's shapes by the names generated clients give them. */
const authSchemaNames = {
  NewAccount: NewAccountSchema,
  LoginRequest: LoginSchema,
  Account: accountSchema,
  CreatedApiKey: createdApiKeySchema,
  RegistrationResult: registered,
  ApiUserRegistrationResult: registeredApiUser,
  SessionResult: session,
  SuccessResult: successBody({}),
};

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
      operationId: 'registerAccount',
      summary: 'Register an account (50 free credits)',
      description:
        'The e-mail is normalized (trimmed, lower-cased); the password has at least 10 characters and is not a common one. At most 5 registrations an hour from one IP address (429 `TOO_MANY_REGISTRATIONS`). Then log in for a Bearer token.',
      tags: [TAG],
      schemas: authSchemaNames,
      body: NewAccountSchema,
      responses: { 201: { description: 'The account', schema: registered } },
      errors: [
        'INVALID_EMAIL',
        'WEAK_PASSWORD',
        'EMAIL_TAKEN',
        'TOO_MANY_REGISTRATIONS',
        'PASSWORD_WORK_BUSY',
      ],
      async handler({ body, ip }) {
        const account = await registration.register(body, ip);
        return { status: 201, body: { success: true, account: accountView(account) } };
      },
    }),
    route({
      method: 'post',
      path: '/auth/login',
      auth: 'public',
      operationId: 'login',
      summary: 'Log in: a Bearer token valid 30 days',
      description:
        'After 10 failed attempts for one e-mail from one IP address within 15 minutes (or 100 from one address), the next get 429 `TOO_MANY_LOGIN_ATTEMPTS` until the window passes.',
      tags: [TAG],
      schemas: authSchemaNames,
      body: LoginSchema,
      responses: {
        200: { description: 'The session’s token', schema: session },
      },
      errors: ['INVALID_CREDENTIALS', 'TOO_MANY_LOGIN_ATTEMPTS', 'PASSWORD_WORK_BUSY'],
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
      operationId: 'logout',
      summary: 'Log out: the Bearer token stops working',
      description: 'The next request with the token gets 401 `INVALID_TOKEN`, on every API process.',
      tags: [TAG],
      schemas: authSchemaNames,
      responses: { 200: { description: 'The session has ended', schema: successBody({}) } },
      async handler({ principal }) {
        await login.logout(principal.sessionId!);
        return { body: { success: true } };
      },
    }),
    route({
      method: 'post',
      path: '/data/auth/register-user',
      auth: 'public',
      operationId: 'registerApiUser',
      summary: 'Register an API user: an account (50 credits) and its first API key at once',
      description:
        'For server-to-server integrations: the key is shown only in this answer, keep it. The same rules and per-IP limit as `registerAccount`.',
      tags: [TAG],
      schemas: authSchemaNames,
      body: NewAccountSchema,
      responses: {
        201: { description: 'The account and its key', schema: registeredApiUser },
      },
      errors: [
        'INVALID_EMAIL',
        'WEAK_PASSWORD',
        'EMAIL_TAKEN',
        'TOO_MANY_REGISTRATIONS',
        'PASSWORD_WORK_BUSY',
      ],
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

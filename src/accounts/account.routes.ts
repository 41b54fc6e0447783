import { route, type AnyRoute } from '../http/route.js';
import { successBody } from '../http/success-body.js';
import { AccountChangesSchema } from './account.schemas.js';
import { accountSchema, accountView, planSchema, planView } from './account.views.js';
import type { AccountService } from './accounts.js';

/** The account and its API keys are documented together. */
export const TAG_ACCOUNT = 'Conta e chaves de API';

const accountWithPlan = successBody({ account: accountSchema, plan: planSchema });

/** The account of the Bearer session's holder, with its plan. */
export function accountRoutes({ account }: { account: AccountService }): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/account',
      auth: 'bearer',
      summary: 'A conta do titular do token',
      tags: [TAG_ACCOUNT],
      responses: { 200: { description: 'A conta e o seu plano', schema: accountWithPlan } },
      async handler({ principal }) {
        const row = await account.get(principal);
        return { body: { success: true, account: accountView(row), plan: planView(principal.plan) } };
      },
    }),
    route({
      method: 'patch',
      path: '/account',
      auth: 'bearer',
      summary: 'Altera o nome e o limite diário de créditos da conta',
      tags: [TAG_ACCOUNT],
      body: AccountChangesSchema,
      responses: { 200: { description: 'Conta alterada', schema: accountWithPlan } },
      async handler({ principal, body }) {
        const row = await account.update(principal, body);
        return { body: { success: true, account: accountView(row), plan: planView(principal.plan) } };
      },
    }),
  ];
}

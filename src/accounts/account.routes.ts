import { route, type AnyRoute, type ApiTag } from '../http/route.js';
import { successBody } from '../http/success-body.js';
import { AccountChangesSchema } from './account.schemas.js';
import { accountSchema, accountView, planSchema, planView } from './account.views.js';
import type { AccountService } from './accounts.js';

const TAG: ApiTag = {
  name: 'Account',
  description:
    'The account of the session’s holder (a Bearer token: an API key gets 401 `BEARER_REQUIRED`): its balance, its plan and its own daily credit limit.',
};

const accountWithPlan = successBody({ account: accountSchema, plan: planSchema });

/** The account's shapes by the names generated clients give them. */
export const accountSchemaNames = {
  Account: accountSchema,
  AccountPlan: planSchema,
  AccountChanges: AccountChangesSchema,
  AccountResult: accountWithPlan,
};

/** The account of the Bearer session's holder, with its plan. */
export function accountRoutes({ account }: { account: AccountService }): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/account',
      auth: 'bearer',
      operationId: 'getAccount',
      summary: 'The account',
      description: 'The account of the Bearer session’s holder, with its plan (the limits the provider set).',
      tags: [TAG],
      schemas: accountSchemaNames,
      responses: { 200: { description: 'The account and its plan', schema: accountWithPlan } },
      async handler({ principal }) {
        const row = await account.get(principal);
        return { body: { success: true, account: accountView(row), plan: planView(principal.plan) } };
      },
    }),
    route({
      method: 'patch',
      path: '/account',
      auth: 'bearer',
      operationId: 'updateAccount',
      summary: 'Change the account’s name or daily credit limit',
      description:
        'The daily credit limit counts every key and session of the account per UTC day and may not exceed the plan’s (400 `LIMIT_ABOVE_PLAN`, naming the field and the plan’s value); null removes it.',
      tags: [TAG],
      schemas: accountSchemaNames,
      body: AccountChangesSchema,
      errors: ['LIMIT_ABOVE_PLAN'],
      responses: { 200: { description: 'The account as changed', schema: accountWithPlan } },
      async handler({ principal, body }) {
        const row = await account.update(principal, body);
        return { body: { success: true, account: accountView(row), plan: planView(principal.plan) } };
      },
    }),
  ];
}

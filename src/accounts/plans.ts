import type { Database } from '../db/database.js';
import { invalid } from '../errors.js';
import type { AccountPlan } from '../principal.js';

/** An account_plans row as stored: a null column (or no row) is the configured default. */
export interface StoredPlan {
  rate_limit_per_minute: number | null;
  rate_limit_per_hour: number | null;
  daily_credits: number | null;
}

export function resolvePlan(stored: Partial<StoredPlan> | undefined, defaults: AccountPlan): AccountPlan {
  return {
    perMinute: stored?.rate_limit_per_minute ?? defaults.perMinute,
    perHour: stored?.rate_limit_per_hour ?? defaults.perHour,
    dailyCredits: stored?.daily_credits ?? defaults.dailyCredits,
  };
}

export async function storedPlan(db: Database, accountId: string): Promise<StoredPlan | undefined> {
  return db
    .selectFrom('account_plans')
    .select(['rate_limit_per_minute', 'rate_limit_per_hour', 'daily_credits'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export async function accountPlan(
  db: Database,
  accountId: string,
  defaults: AccountPlan,
): Promise<AccountPlan> {
  return resolvePlan(await storedPlan(db, accountId), defaults);
}

/** An operator's change: a number sets it, null returns it to the default, absent leaves it. */
export type PlanChanges = Partial<StoredPlan>;

/** Writes an account's plan (the operator's command; never an HTTP route). */
export async function changePlan(
  db: Database,
  accountId: string,
  changes: PlanChanges,
  now: Date,
): Promise<StoredPlan> {
  return db
    .insertInto('account_plans')
    .values({ account_id: accountId, ...changes, updated_at: now })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...changes, updated_at: now }))
    .returning(['rate_limit_per_minute', 'rate_limit_per_hour', 'daily_credits'])
    .executeTakeFirstOrThrow();
}

/** Limits an owner may ask for, by the body field that carries them. */
export interface OwnerLimits {
  rate_limit_per_minute?: number | null;
  rate_limit_per_hour?: number | null;
  daily_credit_limit?: number | null;
}

const BOUNDS: Record<keyof OwnerLimits, [keyof AccountPlan, string]> = {
  rate_limit_per_minute: ['perMinute', 'pedidos por minuto'],
  rate_limit_per_hour: ['perHour', 'pedidos por hora'],
  daily_credit_limit: ['dailyCredits', 'créditos por dia'],
};

/**
 * Refuses (400 LIMIT_ABOVE_PLAN, naming the field and the plan's value) a limit above the account's
 * plan: an owner may narrow what the plan allows, never widen it. null (no limit of its own: the
 * plan's) is always within it.
 */
export function assertWithinPlan(plan: AccountPlan, asked: OwnerLimits): void {
  for (const [field, [dimension, unit]] of Object.entries(BOUNDS) as [
    keyof OwnerLimits,
    [keyof AccountPlan, string],
  ][]) {
    const value = asked[field];
    const bound = plan[dimension];
    if (value === undefined || value === null || bound === null || value <= bound) continue;
    throw invalid(
      `O campo corpo.${field} (${value}) excede o plano da conta: no máximo ${bound} ${unit}. Para um plano maior, contacte o suporte.`,
      'LIMIT_ABOVE_PLAN',
      { field, plan_value: bound },
    );
  }
}

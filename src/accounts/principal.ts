import type { AccountPlan } from './plans.js';

/** Who is calling, once a credential has been checked. */
export interface Principal {
  accountId: string;
  via: 'api_key' | 'bearer';
  /** set when via = api_key */
  apiKeyId: string | null;
  /** set when via = bearer */
  sessionId: string | null;
  /** the key's own limits (within the plan); null = the plan's alone */
  rateLimitPerMinute: number | null;
  rateLimitPerHour: number | null;
  /** the key's own daily credit limit (the account's is read when spending) */
  keyDailyCreditLimit: number | null;
  /** the account's plan, as looked up with the credential (defaults applied) */
  plan: AccountPlan;
}

/** Which credentials a route accepts. */
export type AuthMode = 'public' | 'either' | 'bearer';

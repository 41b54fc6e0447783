import type { CodeOf } from './error-codes.js';
import { ServiceError } from './errors.js';

/**
 * Who is calling, and the port through which the HTTP layer finds out (accounts/authenticator.ts
 * implements it): a neutral module every layer may name, as errors.ts is.
 */

/**
 * The limits a provider sets for an account (sql/0027): requests per minute and per hour for the
 * whole account (every API key and Bearer session together) and credits per day (null: none).
 * An owner sets a key's limits, and the account's daily credit limit, only within them.
 */
export interface AccountPlan {
  perMinute: number;
  perHour: number;
  dailyCredits: number | null;
}

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
  /** what the credential may do: an API key's scopes; a session holds them all */
  scopes: readonly Scope[];
  /** the seller whose stock an API key with `stock:write` may write; null otherwise */
  sellerId: string | null;
}

/** What a credential may do: search the stock (every key's default), write one seller's stock. */
export const SCOPES = ['search', 'stock:write'] as const;
export type Scope = (typeof SCOPES)[number];

/** Which credentials a route accepts. */
export type AuthMode = 'public' | 'either' | 'bearer';

export interface PresentedCredentials {
  apiKey?: string | undefined;
  authorization?: string | undefined;
}

export interface Authenticator {
  /** The caller behind the credentials this route accepts; 401 when missing, unknown, expired or revoked. */
  authenticate(credentials: PresentedCredentials, accepted: Exclude<AuthMode, 'public'>): Promise<Principal>;
}

/**
 * A well-formed credential the database does not know (never issued, revoked): what guessing
 * produces, and what the credential guard counts. Same status, code and message as any 401.
 */
export class UnknownCredentialError extends ServiceError {
  constructor(message: string, code: CodeOf<'unauthenticated'>) {
    super(code, message);
  }
}

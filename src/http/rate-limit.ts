import type { Principal } from '../accounts/principal.js';

/**
 * Which limit counts a request: 'default' is the caller's (API key and account, or the IP on public
 * routes); 'tool' adds the tools' own limit to it; 'dashboard' (the Bearer-only routes: keys,
 * account, credits) counts the account apart from its API traffic; 'ready' and 'webhook' are per-IP
 * limits of their own (health checkers, the payment provider); 'none' counts nothing.
 */
export type RateLimitPolicy = 'default' | 'tool' | 'dashboard' | 'ready' | 'webhook' | 'none';

export interface RateLimitSubject {
  principal: Principal | null;
  ip: string;
  policy: Exclude<RateLimitPolicy, 'none'>;
}

/**
 * Decides whether a request may proceed. Resolves with the X-RateLimit-* headers to send, or
 * throws an HttpError 429 carrying remaining/resetAt and Retry-After.
 */
export interface RequestRateLimiter {
  check(subject: RateLimitSubject): Promise<Record<string, string>>;
  close?(): Promise<void>;
}

export const unlimited: RequestRateLimiter = { check: async () => ({}) };

import type { Principal } from '../accounts/principal.js';

export interface RateLimitSubject {
  principal: Principal | null;
  ip: string;
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

import type { LimitState } from '../errors.js';

/**
 * X-RateLimit-* for the window closest to running out (the de-facto headers clients read) and
 * RateLimit-Policy naming every window the request was counted in.
 */
export function rateLimitHeaders(state: LimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.ceil(state.resetAt.getTime() / 1000)),
    'RateLimit-Policy': state.windows.map((w) => `${w.limit};w=${w.seconds}`).join(', '),
  };
}

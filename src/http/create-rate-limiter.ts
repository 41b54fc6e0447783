import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { LimiterFactory } from '../limits/limiter-factory.js';
import { limitedAddress } from '../limits/limited-address.js';
import type { Logger } from '../logger.js';
import { tooManyRequests } from './errors.js';
import type { RateLimitSubject, RequestRateLimiter } from './rate-limit.js';

export interface RateLimiterDependencies {
  config: Config;
  limiters: LimiterFactory;
  clock: Clock;
  logger: Logger;
}

interface Window {
  name: 'minute' | 'hour';
  seconds: number;
  points: number;
  /** the counter family: counters of one family and bucket are one count */
  family: string;
  /** who is counted in it */
  bucket: string;
}

interface WindowState extends Window {
  remaining: number;
  msBeforeNext: number;
  blocked: boolean;
}

/** Who is counted: the API key, else the Bearer holder's account, else the caller's IP (an IPv6 one by its /64). */
function bucketOf({ principal, ip }: Omit<RateLimitSubject, 'policy'>): string {
  if (principal?.apiKeyId) return `key:${principal.apiKeyId}`;
  if (principal) return `account:${principal.accountId}`;
  return `ip:${limitedAddress(ip)}`;
}

const perMinute = (family: string, bucket: string, points: number): Window => ({
  name: 'minute',
  seconds: 60,
  points,
  family,
  bucket,
});

function windowsFor(subject: RateLimitSubject, limits: Config['rateLimits']): Window[] {
  const { principal, ip, policy } = subject;
  const address = `ip:${limitedAddress(ip)}`;
  if (policy === 'ready') return [perMinute('ready', address, limits.readyPerIpPerMinute)];
  if (policy === 'webhook') return [perMinute('webhook', address, limits.webhookPerIpPerMinute)];
  if (!principal) return [perMinute('minute', address, limits.publicPerMinute)];
  const bucket = bucketOf(subject);
  return [
    perMinute('minute', bucket, principal.rateLimitPerMinute ?? limits.perMinute),
    {
      name: 'hour',
      seconds: 3600,
      points: principal.rateLimitPerHour ?? limits.perHour,
      family: 'hour',
      bucket,
    },
  ];
}

/** The window that binds first: fewest requests left, then the one that resets soonest. */
function tightest(states: WindowState[]): WindowState {
  return states.reduce((a, b) =>
    b.remaining < a.remaining || (b.remaining === a.remaining && b.msBeforeNext < a.msBeforeNext) ? b : a,
  );
}

/**
 * Per API key (60/min and 1,000/h by default, overridable per key), per account for Bearer
 * callers (same defaults), per IP on public routes (120/min). Every counted response carries
 * X-RateLimit-* for the tighter window and RateLimit-Policy naming all windows.
 */
export function createRateLimiter(deps: RateLimiterDependencies): RequestRateLimiter {
  const { config, clock, logger } = deps;
  const factory = deps.limiters;

  const limiterOf = (window: Window) =>
    factory.limiter({ keyPrefix: window.family, points: window.points, duration: window.seconds });

  async function consume(window: Window): Promise<WindowState> {
    const { bucket } = window;
    const limiter = limiterOf(window);
    let res: RateLimiterRes;
    let blocked = false;
    try {
      res = await limiter.consume(bucket);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        // Only reachable if both Redis and the insurance limiter fail: let the request through.
        logger.warn({ err: rejection, bucket }, 'rate limiter unavailable; request not counted');
        return { ...window, remaining: window.points, msBeforeNext: window.seconds * 1000, blocked: false };
      }
      res = rejection;
      blocked = true;
    }
    return {
      ...window,
      remaining: Math.max(0, res.remainingPoints),
      msBeforeNext: res.msBeforeNext,
      blocked,
    };
  }

  return {
    async check(subject) {
      const windows = windowsFor(subject, config.rateLimits);
      const states = await Promise.all(windows.map((w) => consume(w)));
      const blocking = states.filter((s) => s.blocked);
      if (blocking.length) {
        // A refused request is not served, so it is counted nowhere: a client retrying through a
        // minute's block must not use up its hour. Every window gets it back, the refusing ones
        // too (a full window returns to exactly its limit and stays refused), so two refusals
        // racing cannot leave a window above its limit.
        await Promise.all(
          states.map((s) =>
            limiterOf(s)
              .reward(s.bucket, 1)
              .catch((error: unknown) =>
                logger.warn({ err: error, bucket: s.bucket }, 'rate limiter reward failed'),
              ),
          ),
        );
      }
      // When blocked, report the window that keeps the caller out the longest.
      const shown = blocking.length
        ? blocking.reduce((a, b) => (b.msBeforeNext > a.msBeforeNext ? b : a))
        : tightest(states);
      const resetAt = new Date(clock.now().getTime() + shown.msBeforeNext);
      const headers = {
        'X-RateLimit-Limit': String(shown.points),
        'X-RateLimit-Remaining': String(shown.remaining),
        'X-RateLimit-Reset': String(Math.ceil(resetAt.getTime() / 1000)),
        'RateLimit-Policy': states.map((s) => `${s.points};w=${s.seconds}`).join(', '),
      };
      if (blocking.length) {
        throw tooManyRequests(
          shown.name === 'minute'
            ? `Limite de ${shown.points} pedidos por minuto excedido. Tente novamente mais tarde.`
            : `Limite de ${shown.points} pedidos por hora excedido. Tente novamente mais tarde.`,
          { remaining: 0, resetAt, retryAfterSeconds: Math.ceil(shown.msBeforeNext / 1000) },
          headers,
        );
      }
      return headers;
    },
  };
}

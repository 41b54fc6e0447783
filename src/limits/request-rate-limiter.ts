import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from '../principal.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { RateLimitedError, type LimitState } from '../errors.js';
import type { LimiterFactory } from './limiter-factory.js';
import { limitedAddress } from './limited-address.js';
import type { Logger } from '../logger.js';

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
 * Decides whether a request may proceed. Resolves with the state of the window closest to running
 * out (null when nothing counts), or throws a RateLimitedError carrying remaining/resetAt.
 */
export interface RequestRateLimiter {
  check(subject: RateLimitSubject): Promise<LimitState | null>;
  close?(): Promise<void>;
}

export const unlimited: RequestRateLimiter = { check: async () => null };

export interface RateLimiterDependencies {
  config: Config;
  limiters: LimiterFactory;
  clock: Clock;
  logger: Logger;
  /** told of each refusal, with the window that refused (metrics) */
  onRefused?: (limit: 'requests_per_minute' | 'requests_per_hour') => void;
}

interface Window {
  name: 'minute' | 'hour';
  seconds: number;
  points: number;
  /** the counter family: counters of one family and bucket are one count */
  family: string;
  /** who is counted in it */
  bucket: string;
  /** what the 429 says is limited: "pedidos por minuto desta chave de API" */
  what: string;
}

interface WindowState extends Window {
  remaining: number;
  msBeforeNext: number;
  blocked: boolean;
}

const UNIT = { minute: 'por minuto', hour: 'por hora' } as const;
const SECONDS = { minute: 60, hour: 3600 } as const;

function window(name: Window['name'], family: string, bucket: string, points: number, what: string): Window {
  return { name, seconds: SECONDS[name], points, family, bucket, what: what.replace('%', UNIT[name]) };
}

/**
 * The windows a request is counted in:
 * - an authenticated caller: the account's plan per minute and per hour, for the whole account (every
 *   key and Bearer session together: more keys or sessions give no more requests); an API key also
 *   in its own windows where it sets a lower limit than the plan (a key without one is bound by the
 *   account's alone); the tools add a per-account window of their own; the Bearer-only routes
 *   (the dashboard's) count the account with the plan's values in windows of their own;
 * - public routes: the caller's IP (an IPv6 one by its /64); /ready and the webhook have their own.
 */
function windowsFor(subject: RateLimitSubject, config: Config): Window[] {
  const { principal, ip, policy } = subject;
  const limits = config.rateLimits;
  const address = `ip:${limitedAddress(ip)}`;
  if (policy === 'ready')
    return [window('minute', 'ready', address, limits.readyPerIpPerMinute, 'pedidos %')];
  if (policy === 'webhook') {
    return [window('minute', 'webhook', address, limits.webhookPerIpPerMinute, 'pedidos %')];
  }
  if (!principal) return [window('minute', 'minute', address, limits.publicPerMinute, 'pedidos %')];
  const { plan } = principal;
  if (policy === 'dashboard') {
    // the plan's values, counted apart: an integration that used up the account's requests never
    // keeps its owner from revoking a key or buying credits
    const owner = `dashboard:${principal.accountId}`;
    return [
      window('minute', 'minute', owner, plan.perMinute, 'pedidos % à gestão da conta'),
      window('hour', 'hour', owner, plan.perHour, 'pedidos % à gestão da conta'),
    ];
  }
  const account = `account:${principal.accountId}`;
  const windows: Window[] = [];
  if (principal.apiKeyId) {
    const key = `key:${principal.apiKeyId}`;
    const own = { minute: principal.rateLimitPerMinute, hour: principal.rateLimitPerHour };
    const planned = { minute: plan.perMinute, hour: plan.perHour };
    for (const name of ['minute', 'hour'] as const) {
      const points = own[name];
      if (points !== null && points < planned[name]) {
        windows.push(window(name, name, key, points, 'pedidos % desta chave de API'));
      }
    }
  }
  windows.push(
    window('minute', 'minute', account, plan.perMinute, 'pedidos % da conta (todas as chaves e sessões)'),
    window('hour', 'hour', account, plan.perHour, 'pedidos % da conta (todas as chaves e sessões)'),
  );
  if (policy === 'tool') {
    windows.push(
      window('minute', 'tool', account, config.toolRateLimitPerMinute, 'execuções de ferramentas % da conta'),
    );
  }
  return windows;
}

/** The window that binds first: fewest requests left, then the one that resets soonest. */
function tightest(states: WindowState[]): WindowState {
  return states.reduce((a, b) =>
    b.remaining < a.remaining || (b.remaining === a.remaining && b.msBeforeNext < a.msBeforeNext) ? b : a,
  );
}

/**
 * Counts each request in its windows (windowsFor). Every counted response tells the caller of the
 * window closest to running out and names all of them (src/http/rate-limit-headers.ts).
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
      const windows = windowsFor(subject, config);
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
      const state: LimitState = {
        limit: shown.points,
        remaining: shown.remaining,
        resetAt,
        windows: states.map((s) => ({ limit: s.points, seconds: s.seconds })),
      };
      if (blocking.length) {
        deps.onRefused?.(shown.name === 'minute' ? 'requests_per_minute' : 'requests_per_hour');
        throw new RateLimitedError(
          `Limite de ${shown.points} ${shown.what} excedido. Tente novamente mais tarde.`,
          { remaining: 0, resetAt, retryAfterSeconds: Math.ceil(shown.msBeforeNext / 1000) },
          state,
        );
      }
      return state;
    },
  };
}

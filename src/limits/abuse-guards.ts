import { LRUCache } from 'lru-cache';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { tooManyRequests } from '../http/errors.js';
import type { Limiter, LimiterFactory } from './limiter-factory.js';

/** A single-IP cap across e-mails, this many times the per-e-mail allowance (credential stuffing). */
const IP_FAILURES_FACTOR = 10;

function blockedError(message: string, code: string, res: RateLimiterRes, clock: Clock) {
  return tooManyRequests(
    message,
    {
      remaining: 0,
      resetAt: new Date(clock.now().getTime() + res.msBeforeNext),
      retryAfterSeconds: Math.ceil(res.msBeforeNext / 1000),
    },
    {},
    code,
  );
}

/** Consumes without throwing on a full window: the caller decides what a full window means. */
async function consumeQuietly(limiter: Limiter, key: string): Promise<void> {
  await limiter.consume(key).catch((rejection: unknown) => {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
  });
}

/**
 * Login brute force: after N failures for one e-mail from one IP within the window, that pair
 * gets 429 until the window passes. Counting the pair (not the e-mail alone) means an attacker
 * cannot lock the owner out from everywhere; a cap per IP across e-mails stops one address
 * from trying many accounts.
 */
export class LoginGuard {
  private readonly pair: Limiter;
  private readonly perIp: Limiter;

  constructor(
    limiters: LimiterFactory,
    limits: Config['rateLimits'],
    private readonly clock: Clock,
  ) {
    const duration = limits.loginFailureWindowSeconds;
    this.pair = limiters.limiter({
      keyPrefix: 'login-fail',
      points: limits.loginFailuresPerWindow,
      duration,
    });
    this.perIp = limiters.limiter({
      keyPrefix: 'login-fail-ip',
      points: limits.loginFailuresPerWindow * IP_FAILURES_FACTOR,
      duration,
    });
  }

  private static pairKey(email: string, ip: string) {
    return `${email}|${ip}`;
  }

  /** Throws 429 while the e-mail (from this IP) or the IP is locked out. */
  async assertAllowed(email: string, ip: string): Promise<void> {
    const [pair, perIp] = await Promise.all([
      this.pair.get(LoginGuard.pairKey(email, ip)),
      this.perIp.get(ip),
    ]);
    for (const [res, points] of [
      [pair, this.pair.points],
      [perIp, this.perIp.points],
    ] as const) {
      if (res && res.consumedPoints >= points) {
        throw blockedError(
          'Demasiadas tentativas de início de sessão falhadas. Aguarde antes de tentar novamente.',
          'TOO_MANY_LOGIN_ATTEMPTS',
          res,
          this.clock,
        );
      }
    }
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    await Promise.all([
      consumeQuietly(this.pair, LoginGuard.pairKey(email, ip)),
      consumeQuietly(this.perIp, ip),
    ]);
  }

  async recordSuccess(email: string, ip: string): Promise<void> {
    await this.pair.delete(LoginGuard.pairKey(email, ip));
  }
}

/** Free-credit farming: at most N registrations per IP per hour (both registration paths share it). */
export class RegistrationGuard {
  private readonly limiter: Limiter;

  constructor(
    limiters: LimiterFactory,
    limits: Config['rateLimits'],
    private readonly clock: Clock,
  ) {
    this.limiter = limiters.limiter({
      keyPrefix: 'register',
      points: limits.registrationsPerIpPerHour,
      duration: 3600,
    });
  }

  /** Takes one registration from the IP's allowance, or throws 429 when none is left. */
  async take(ip: string): Promise<void> {
    try {
      await this.limiter.consume(ip);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw blockedError(
        `Limite de ${this.limiter.points} registos por hora a partir deste endereço atingido. Tente mais tarde.`,
        'TOO_MANY_REGISTRATIONS',
        rejection,
        this.clock,
      );
    }
  }

  /** Gives the registration back when it did not create an account (e-mail taken, ...). */
  async giveBack(ip: string): Promise<void> {
    await this.limiter.reward(ip).catch(() => {});
  }
}

/**
 * Guessing credentials: an IP whose presented API keys or Bearer tokens were refused N times within
 * a minute gets 429 on every authenticated route until that minute ends. Failures are counted on
 * the shared backend; each process also remembers the IPs it saw go over, so a blocked IP is turned
 * away before any database lookup, at no cost to everyone else's requests.
 */
export class CredentialFailureGuard {
  private readonly limiter: Limiter;
  /** blocked IPs, each until its window ends (the entry's own TTL) */
  private readonly blocked = new LRUCache<string, Date>({ max: 100_000, ttlAutopurge: false });

  constructor(
    limiters: LimiterFactory,
    limits: Config['rateLimits'],
    private readonly clock: Clock,
  ) {
    this.limiter = limiters.limiter({
      keyPrefix: 'credential-fail-ip',
      points: limits.credentialFailuresPerIpPerMinute,
      duration: 60,
    });
  }

  private error(until: Date) {
    const ms = Math.max(0, until.getTime() - this.clock.now().getTime());
    return tooManyRequests(
      'Demasiadas credenciais inválidas a partir deste endereço. Aguarde antes de tentar novamente.',
      { remaining: 0, resetAt: until, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) },
      {},
      'TOO_MANY_CREDENTIAL_FAILURES',
    );
  }

  /** Throws 429 while the IP is blocked. */
  assertAllowed(ip: string): void {
    const until = this.blocked.get(ip);
    if (until && until.getTime() > this.clock.now().getTime()) throw this.error(until);
  }

  /** Counts a refused credential; throws 429 (instead of the 401) once the IP is over the limit. */
  async recordFailure(ip: string): Promise<void> {
    try {
      await this.limiter.consume(ip);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const until = new Date(this.clock.now().getTime() + rejection.msBeforeNext);
      this.blocked.set(ip, until, { ttl: Math.max(1, rejection.msBeforeNext) });
      throw this.error(until);
    }
  }
}

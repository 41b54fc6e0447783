import type { CodeOf } from '../error-codes.js';
import { LRUCache } from 'lru-cache';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Clock } from '../clock.js';
import { sha256 } from '../crypto-text.js';
import type { Config } from '../config.js';
import { RateLimitedError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Limiter, LimiterFactory } from './limiter-factory.js';
import { limitedAddress } from './limited-address.js';

/** A single-IP cap across e-mails, this many times the per-e-mail allowance (credential stuffing). */
const IP_FAILURES_FACTOR = 10;

function blockedError(message: string, code: CodeOf<'rate_limited'>, res: RateLimiterRes, clock: Clock) {
  return new RateLimitedError(
    message,
    {
      remaining: 0,
      resetAt: new Date(clock.now().getTime() + res.msBeforeNext),
      retryAfterSeconds: Math.ceil(res.msBeforeNext / 1000),
    },
    undefined,
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
    return `${email}|${limitedAddress(ip)}`;
  }

  /** Throws 429 while the e-mail (from this IP) or the IP is locked out. */
  async assertAllowed(email: string, ip: string): Promise<void> {
    const [pair, perIp] = await Promise.all([
      this.pair.get(LoginGuard.pairKey(email, ip)),
      this.perIp.get(limitedAddress(ip)),
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
      consumeQuietly(this.perIp, limitedAddress(ip)),
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
      await this.limiter.consume(limitedAddress(ip));
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
    await this.limiter.reward(limitedAddress(ip)).catch(() => {});
  }
}

/**
 * Guessing credentials: an IP whose presented API keys or Bearer tokens were unknown to the database
 * N times within a minute gets 429 on every authenticated route until that minute ends, before any
 * lookup. Failures are counted on the shared backend; each process remembers the IPs it saw go
 * over, so the check costs nothing on other requests. Credentials this process has seen succeed in
 * the last hour still pass a blocked IP (then their lookup decides as always): one broken or
 * hostile client behind a shared address (NAT, corporate egress) does not lock out the working
 * integrations behind it.
 */
export class CredentialFailureGuard {
  private readonly limiter: Limiter;
  /** blocked IPs, each until its window ends (the entry's own TTL) */
  private readonly blocked = new LRUCache<string, Date>({ max: 100_000 });
  /** SHA-256 of credentials that authenticated recently */
  private readonly working = new LRUCache<string, true>({ max: 100_000, ttl: 3_600_000 });

  constructor(
    limiters: LimiterFactory,
    limits: Config['rateLimits'],
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.limiter = limiters.limiter({
      keyPrefix: 'credential-fail-ip',
      points: limits.credentialFailuresPerIpPerMinute,
      duration: 60,
    });
  }

  private error(until: Date) {
    const ms = Math.max(0, until.getTime() - this.clock.now().getTime());
    return new RateLimitedError(
      'Demasiadas credenciais inválidas a partir deste endereço. Aguarde antes de tentar novamente.',
      { remaining: 0, resetAt: until, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) },
      undefined,
      'TOO_MANY_CREDENTIAL_FAILURES',
    );
  }

  /** Throws 429 while the IP is blocked, unless these credentials worked recently. */
  assertAllowed(ip: string, credentials: string): void {
    const until = this.blocked.get(limitedAddress(ip));
    if (!until || until.getTime() <= this.clock.now().getTime()) return;
    if (!this.working.has(sha256(credentials).toString('base64'))) throw this.error(until);
  }

  recordSuccess(credentials: string): void {
    this.working.set(sha256(credentials).toString('base64'), true);
  }

  /** Counts an unknown credential; throws 429 (instead of the 401) once the IP is over the limit. */
  async recordFailure(ip: string): Promise<void> {
    let res: RateLimiterRes | null = null;
    try {
      await this.limiter.consume(limitedAddress(ip));
    } catch (rejection) {
      // the counters' backend failing must not turn a 401 into a 500
      if (!(rejection instanceof RateLimiterRes)) {
        this.logger.warn({ err: rejection, ip }, 'credential failure not counted');
        return;
      }
      res = rejection;
    }
    if (res) {
      const until = new Date(this.clock.now().getTime() + res.msBeforeNext);
      this.blocked.set(limitedAddress(ip), until, { ttl: Math.max(1, res.msBeforeNext) });
      throw this.error(until);
    }
  }
}

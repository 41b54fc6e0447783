import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface WindowSpec {
  /** names the counter family; counters with the same prefix and key are shared */
  keyPrefix: string;
  points: number;
  /** seconds */
  duration: number;
}

/**
 * Builds rate-limiter-flexible limiters on one backend: Redis when configured, with an in-memory
 * insurance limiter that takes over at once when Redis stops answering (no offline queue, so a
 * dead connection fails fast) and the service keeps limiting; memory alone otherwise.
 *
 * Limiters are cached by (prefix, points, duration). Counters live under the prefix and key only,
 * so a key whose limit is changed keeps its count: the new limiter reads the same counter and
 * compares it with the new number of points.
 */
export class LimiterFactory {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    private readonly redis: Redis | null,
    private readonly namespace: string,
  ) {}

  limiter(spec: WindowSpec): RateLimiterAbstract {
    const id = `${spec.keyPrefix}|${spec.points}|${spec.duration}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const options = {
        keyPrefix: `${this.namespace}${spec.keyPrefix}`,
        points: spec.points,
        duration: spec.duration,
      };
      const memory = new RateLimiterMemory(options);
      limiter = this.redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: this.redis,
            rejectIfRedisNotReady: true,
            insuranceLimiter: memory,
          })
        : memory;
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

export interface WindowSpec {
  /** names the counter family; counters with the same prefix and key are shared */
  keyPrefix: string;
  points: number;
  /** seconds */
  duration: number;
}

/** A fixed-window limit of `points` per key, as rate-limiter-flexible's limiters behave. */
export interface Limiter {
  readonly points: number;
  /** counts one request; rejects with a RateLimiterRes once the window holds more than `points` */
  consume(key: string): Promise<RateLimiterRes>;
  /** takes back requests counted in the current window */
  reward(key: string, points?: number): Promise<unknown>;
  get(key: string): Promise<RateLimiterRes | null>;
  delete(key: string): Promise<unknown>;
}

/** Counters never refuse on their own: each Limiter compares their count with its own points. */
const UNLIMITED = 2 ** 31 - 1;

/** One window's counter seen with a given number of points. */
class PointsView implements Limiter {
  constructor(
    private readonly counter: RateLimiterAbstract,
    readonly points: number,
  ) {}

  private seen(res: RateLimiterRes): RateLimiterRes {
    return new RateLimiterRes(
      Math.max(0, this.points - res.consumedPoints),
      res.msBeforeNext,
      res.consumedPoints,
      res.isFirstInDuration,
    );
  }

  async consume(key: string): Promise<RateLimiterRes> {
    const res = this.seen(await this.counter.consume(key));
    if (res.consumedPoints > this.points) throw res;
    return res;
  }

  reward(key: string, points = 1): Promise<unknown> {
    return this.counter.reward(key, points);
  }

  async get(key: string): Promise<RateLimiterRes | null> {
    const res = await this.counter.get(key);
    return res && this.seen(res);
  }

  delete(key: string): Promise<unknown> {
    return this.counter.delete(key);
  }
}

/**
 * Builds fixed-window limiters on one backend: Redis when configured, with an in-memory insurance
 * counter that takes over at once when Redis stops answering (no offline queue, so a dead
 * connection fails fast) and the service keeps limiting; memory alone otherwise.
 *
 * One counter per (prefix, duration), shared by every limit on it: a key whose limit is changed
 * keeps its count, on either backend (a counter per number of points made the in-memory count
 * start again from zero whenever an owner changed the limit).
 */
export class LimiterFactory {
  private readonly counters = new Map<string, RateLimiterAbstract>();

  constructor(
    private readonly redis: Redis | null,
    private readonly namespace: string,
  ) {}

  limiter(spec: WindowSpec): Limiter {
    return new PointsView(this.counter(spec.keyPrefix, spec.duration), spec.points);
  }

  private counter(prefix: string, duration: number): RateLimiterAbstract {
    const id = `${prefix}|${duration}`;
    let counter = this.counters.get(id);
    if (!counter) {
      const options = { keyPrefix: `${this.namespace}${prefix}`, points: UNLIMITED, duration };
      const memory = new RateLimiterMemory(options);
      counter = this.redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: this.redis,
            rejectIfRedisNotReady: true,
            insuranceLimiter: memory,
          })
        : memory;
      this.counters.set(id, counter);
    }
    return counter;
  }
}

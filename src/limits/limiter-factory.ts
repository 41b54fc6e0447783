import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { systemClock, type Clock } from '../clock.js';

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

/** A window counter: rate-limiter-flexible's limiters, or ClockedMemoryCounter. */
type Counter = Pick<RateLimiterAbstract, 'consume' | 'reward' | 'get' | 'delete'>;

/**
 * Fixed windows in memory, timed by the service's clock: rate-limiter-flexible's memory store reads
 * Date.now() and ends windows with timers, so a test could only wait a window out, never move its
 * clock through it. A window is gone once the clock has passed its end; ended windows are swept
 * once per window length, so memory holds about the live ones.
 */
class ClockedMemoryCounter implements Counter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private nextSweep = 0;

  constructor(
    private readonly clock: Clock,
    private readonly durationMs: number,
  ) {}

  private live(key: string, now: number) {
    const window = this.windows.get(key);
    if (window && window.endsAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private add(key: string, points: number): RateLimiterRes {
    const now = this.clock.now().getTime();
    let window = this.live(key, now);
    const first = !window;
    if (!window) {
      if (now >= this.nextSweep) {
        for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
        this.nextSweep = now + this.durationMs;
      }
      window = { count: 0, endsAt: now + this.durationMs };
      this.windows.set(key, window);
    }
    window.count += points;
    return new RateLimiterRes(0, window.endsAt - now, window.count, first);
  }

  async consume(key: string | number): Promise<RateLimiterRes> {
    return this.add(String(key), 1);
  }

  async reward(key: string | number, points = 1): Promise<RateLimiterRes> {
    return this.add(String(key), -points);
  }

  async get(key: string | number): Promise<RateLimiterRes | null> {
    const now = this.clock.now().getTime();
    const window = this.live(String(key), now);
    return window ? new RateLimiterRes(0, window.endsAt - now, window.count, false) : null;
  }

  async delete(key: string | number): Promise<boolean> {
    return this.windows.delete(String(key));
  }
}

/** One window's counter seen with a given number of points. */
class PointsView implements Limiter {
  constructor(
    private readonly counter: Counter,
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
 * connection fails fast) and the service keeps limiting; memory alone otherwise, timed by the
 * service's clock.
 *
 * One counter per (prefix, duration), shared by every limit on it: a key whose limit is changed
 * keeps its count, on either backend (a counter per number of points made the in-memory count
 * start again from zero whenever an owner changed the limit).
 */
export class LimiterFactory {
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly redis: Redis | null,
    private readonly namespace: string,
    private readonly clock: Clock = systemClock,
  ) {}

  limiter(spec: WindowSpec): Limiter {
    return new PointsView(this.counter(spec.keyPrefix, spec.duration), spec.points);
  }

  private counter(prefix: string, duration: number): Counter {
    const id = `${prefix}|${duration}`;
    let counter = this.counters.get(id);
    if (!counter) {
      const options = { keyPrefix: `${this.namespace}${prefix}`, points: UNLIMITED, duration };
      counter = this.redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: this.redis,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new RateLimiterMemory(options),
          })
        : new ClockedMemoryCounter(this.clock, duration * 1000);
      this.counters.set(id, counter);
    }
    return counter;
  }
}

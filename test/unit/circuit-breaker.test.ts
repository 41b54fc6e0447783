import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { Bulkhead, BulkheadFullError } from '../../src/resilience/bulkhead.js';
import {
  CircuitBreaker,
  CircuitOpenError,
  type BreakerSettings,
  type BreakerState,
} from '../../src/resilience/circuit-breaker.js';

const SETTINGS: BreakerSettings = {
  windowMs: 10_000,
  minCalls: 10,
  failureRate: 0.5,
  consecutiveFailures: 5,
  slowCallMs: 1_000,
  slowRate: 0.5,
  slowInFlight: 4,
  openMs: 2_000,
  probes: 1,
};

const down = () => new Error('unreachable');
const isDown = (error: unknown) => error instanceof Error && error.message === 'unreachable';

/** A breaker on a clock that the test moves, with its changes kept. */
function breaker(settings: Partial<BreakerSettings> = {}) {
  const clock = new ManualClock(new Date('2026-11-26T12:00:00Z'));
  const changes: BreakerState[] = [];
  const b = new CircuitBreaker(
    'cluster',
    { ...SETTINGS, ...settings },
    () => clock.now().getTime(),
    (_from, to) => changes.push(to),
  );
  const ok = () => b.run(async () => 'ok', isDown);
  const fail = () => b.run(async () => Promise.reject(down()), isDown).catch((e: unknown) => e);
  /** a call that takes `ms` of the clock */
  const slow = (ms: number) =>
    b.run(async () => {
      clock.advance(ms);
      return 'late';
    }, isDown);
  return { b, clock, changes, ok, fail, slow };
}

describe('circuit breaker (src/resilience/circuit-breaker.ts)', () => {
  it('opens after failures in a row and then refuses at once, saying when to try again', async () => {
    const { b, changes, fail } = breaker();
    for (let i = 0; i < 4; i++) await fail();
    expect(b.state).toBe('closed');
    await fail();
    expect(b.state).toBe('open');
    expect(changes).toEqual(['open']);
    let called = false;
    const refused = await b
      .run(async () => {
        called = true;
      }, isDown)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CircuitOpenError);
    expect((refused as CircuitOpenError).retryAfterMs).toBe(2_000);
    expect(called).toBe(false);
  });

  it('opens on the failure rate of the window once it holds enough calls, not before', async () => {
    const { b, ok, fail } = breaker({ consecutiveFailures: 100 });
    for (let i = 0; i < 4; i++) {
      await ok();
      await fail();
    }
    expect(b.state).toBe('closed'); // 8 calls: fewer than minCalls
    await ok();
    await fail();
    expect(b.state).toBe('open'); // 10 calls, half failed
  });

  it('reads its rates over its window alone, however many calls it holds: the calls it has left no longer count', async () => {
    const { b, clock, ok, fail } = breaker({ consecutiveFailures: 1_000_000 });
    for (let i = 0; i < 1_600; i++) await ok();
    for (let i = 0; i < 1_400; i++) await fail();
    expect(b.state).toBe('closed'); // 1,400 of 3,000 failed
    clock.advance(10_001); // all of them out of the window
    for (let i = 0; i < 600; i++) await ok();
    for (let i = 0; i < 590; i++) await fail();
    expect(b.state).toBe('closed'); // 590 of 1,190
    for (let i = 0; i < 9; i++) await fail();
    expect(b.state).toBe('closed'); // 599 of 1,199
    await fail();
    expect(b.state).toBe('open'); // 600 of 1,200: half failed
  });

  it('counts a request refused for its own fault as a success (it says nothing of the dependency)', async () => {
    const { b } = breaker();
    for (let i = 0; i < 10; i++) {
      await b.run(async () => Promise.reject(new Error('400: bad query')), isDown).catch(() => undefined);
    }
    expect(b.state).toBe('closed');
  });

  it('opens when calls are slow, not only when they fail', async () => {
    const { b, ok, slow } = breaker();
    for (let i = 0; i < 5; i++) await ok();
    for (let i = 0; i < 4; i++) await slow(1_500);
    expect(b.state).toBe('closed');
    await slow(1_500);
    expect(b.state).toBe('open');
  });

  it('half opens after its open time, closes on a probe that succeeds, opens again on one that fails', async () => {
    const { b, clock, changes, ok, fail } = breaker();
    for (let i = 0; i < 5; i++) await fail();
    clock.advance(1_999);
    expect(b.state).toBe('open');
    clock.advance(1);
    expect(b.state).toBe('half_open');
    await fail();
    expect(b.state).toBe('open');
    clock.advance(2_000);
    await ok();
    expect(b.state).toBe('closed');
    expect(changes).toEqual(['open', 'half_open', 'open', 'half_open', 'closed']);
  });

  it('does not count, once closed again, the calls that were stuck while it was open', async () => {
    const { b, clock, fail, ok } = breaker();
    const stuck: (() => void)[] = [];
    const hanging = Array.from({ length: 6 }, () =>
      b
        .run(() => new Promise<void>((_, reject) => stuck.push(() => reject(down()))), isDown)
        .catch(() => undefined),
    );
    for (let i = 0; i < 5; i++) await fail();
    expect(b.state).toBe('open');
    clock.advance(2_000);
    await ok();
    expect(b.state).toBe('closed');
    // the six calls from before the failure end now, failed and far past the slow-call time
    clock.advance(30_000);
    for (const release of stuck) release();
    await Promise.all(hanging);
    expect(b.state).toBe('closed');
  });

  it('lets only its probes through while half open, and a slow probe opens it again', async () => {
    const { b, clock, fail, slow } = breaker();
    for (let i = 0; i < 5; i++) await fail();
    clock.advance(2_000);
    let release: () => void = () => undefined;
    const probe = b.run(() => new Promise<void>((resolve) => (release = resolve)), isDown);
    expect(await b.run(async () => 'second', isDown).catch((e: unknown) => e)).toBeInstanceOf(
      CircuitOpenError,
    );
    clock.advance(1_500);
    release();
    await probe;
    expect(b.state).toBe('open');
    clock.advance(2_000);
    expect(await slow(10)).toBe('late');
    expect(b.state).toBe('closed');
  });

  it('says without taking a probe whether a call would be refused now: open, or half open with its probes out', async () => {
    const { b, clock, fail } = breaker();
    expect(b.refusal()).toBeNull();
    for (let i = 0; i < 5; i++) await fail();
    expect(b.refusal()).toMatchObject({ retryAfterMs: 2_000 });
    clock.advance(1_500);
    expect(b.refusal()).toMatchObject({ retryAfterMs: 500 });
    clock.advance(500);
    // half open, its one probe's place free: asking twice does not take it
    expect(b.refusal()).toBeNull();
    expect(b.refusal()).toBeNull();
    let release: () => void = () => undefined;
    const probe = b.run(() => new Promise<void>((resolve) => (release = resolve)), isDown);
    expect(b.refusal()).toBeInstanceOf(CircuitOpenError);
    release();
    await probe;
    expect(b.state).toBe('closed');
    expect(b.refusal()).toBeNull();
  });
});

describe('bulkhead (src/resilience/bulkhead.ts)', () => {
  it('runs a bounded number at once, lets a few wait, refuses the rest at once, and hands a freed place to the longest waiter', async () => {
    const lane = new Bulkhead('pages', { maxConcurrent: 2, maxQueued: 1, queueTimeoutMs: 60_000 });
    const gates: (() => void)[] = [];
    const order: string[] = [];
    const held = (name: string) =>
      lane.run(
        () =>
          new Promise<void>((resolve) => {
            order.push(name);
            gates.push(resolve);
          }),
      );
    const a = held('a');
    const b = held('b');
    const c = held('c');
    expect(await held('d').catch((e: unknown) => e)).toBeInstanceOf(BulkheadFullError);
    expect([lane.inFlight, lane.queued]).toEqual([2, 1]);
    gates[0]!();
    await a;
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['a', 'b', 'c']);
    gates[1]!();
    gates[2]!();
    await Promise.all([b, c]);
    expect([lane.inFlight, lane.queued]).toEqual([0, 0]);
  });

  it('turns every waiter away at once when told the dependency is away, and says when it is full', async () => {
    const lane = new Bulkhead('pages', { maxConcurrent: 1, maxQueued: 5, queueTimeoutMs: 60_000 });
    expect(lane.full).toBe(false);
    let release: () => void = () => undefined;
    const running = lane.run(() => new Promise<void>((resolve) => (release = resolve)));
    expect(lane.full).toBe(true);
    const waiting = [lane.run(async () => 'w1'), lane.run(async () => 'w2')].map((w) =>
      w.catch((e: unknown) => e),
    );
    expect(lane.queued).toBe(2);
    const away = new CircuitOpenError('cluster', 2_000);
    lane.turnAway(away);
    expect(await Promise.all(waiting)).toEqual([away, away]);
    expect([lane.inFlight, lane.queued]).toEqual([1, 0]);
    release();
    await running;
    expect(lane.full).toBe(false);
    expect(await lane.run(async () => 'after')).toBe('after');
  });

  it('refuses a waiter whose wait for a place runs out', async () => {
    const lane = new Bulkhead('analytics', { maxConcurrent: 1, maxQueued: 5, queueTimeoutMs: 20 });
    let release: () => void = () => undefined;
    const running = lane.run(() => new Promise<void>((resolve) => (release = resolve)));
    expect(await lane.run(async () => 'never').catch((e: unknown) => e)).toBeInstanceOf(BulkheadFullError);
    expect(lane.queued).toBe(0);
    release();
    await running;
    expect(await lane.run(async () => 'now')).toBe('now');
  });
});

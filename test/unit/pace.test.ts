import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pace } from '../../src/stock/pace.js';

/** FEEDS_MAX_LINES_PER_SECOND's and FEEDS_MAX_UPLOAD_MB_PER_SECOND's pace, on a clock the test moves. */
describe('background work done at most so many units a second', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  /** whether the pace's promise has settled, after the microtasks queued so far */
  async function settled(promise: Promise<void>): Promise<boolean> {
    let done = false;
    void promise.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    return done;
  }

  it('holds the reader back until the lines read fit the rate since the pace began', async () => {
    const linePace = pace(1_000);
    // 5,000 lines read at once: 5 s at 1,000 a second
    const waiting = linePace(5_000);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
    // a reader slower than the rate is not held at all
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await settled(linePace(10_000))).toBe(true);
  });

  it('never waits without a rate', async () => {
    expect(await settled(pace(0)(1_000_000))).toBe(true);
  });
});

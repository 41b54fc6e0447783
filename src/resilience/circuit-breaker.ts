export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerSettings {
  /** the sliding window the failure and slow-call rates are read over */
  windowMs: number;
  /** calls the window must hold before its rates can open the breaker */
  minCalls: number;
  /** share of failed calls (0..1) that opens it */
  failureRate: number;
  /** failures in a row that open it, whatever the window holds */
  consecutiveFailures: number;
  /** a call taking longer than this is slow; so is one still in flight past it */
  slowCallMs: number;
  /** share of slow calls (0..1) that opens it */
  slowRate: number;
  /** calls in flight past slowCallMs at once that open it (a dependency that stopped answering) */
  slowInFlight: number;
  /** how long it stays open before letting probes through */
  openMs: number;
  /** probes let through at once while half open */
  probes: number;
}

/** One closed call, in the window. */
interface Outcome {
  at: number;
  failed: boolean;
  slow: boolean;
}

/** A call refused because the breaker is open: the dependency is taken for gone. */
export class CircuitOpenError extends Error {
  constructor(
    readonly dependency: string,
    /** when a probe may go through */
    readonly retryAfterMs: number,
  ) {
    super(`${dependency}: circuit open`);
    this.name = 'CircuitOpenError';
  }
}

/**
 * A circuit breaker for one dependency (as opossum's or Envoy's outlier detection): while the
 * dependency fails or stalls, callers are refused at once instead of each waiting out its time
 * budget and holding a connection.
 *
 * Closed: every call goes through and its outcome is kept for `windowMs`. It opens when the window
 * holds at least `minCalls` and their failure or slow-call share reaches its threshold, after
 * `consecutiveFailures` failures in a row, or when `slowInFlight` calls are in flight past
 * `slowCallMs` at once (a dependency frozen answers nothing, so waiting for its calls to fail would
 * take the whole budget). Open: calls are refused (CircuitOpenError) for `openMs`. Half open: up to
 * `probes` calls go through, given at most `slowCallMs` each (`probeBudgetMs`); one that succeeds
 * in time closes the breaker, one that fails or is slow opens it again.
 */
export class CircuitBreaker {
  private state_: BreakerState = 'closed';
  /**
   * The window's outcomes, oldest first, from `firstOutcome` on, with their failed and slow ones
   * counted as they come and go: the window of a busy API holds tens of thousands, and every call
   * that closes reads its rates.
   */
  private outcomes: Outcome[] = [];
  private firstOutcome = 0;
  private failedInWindow = 0;
  private slowInWindow = 0;
  private failuresInARow = 0;
  private openedAt = 0;
  private probesInFlight = 0;
  /** calls in flight since the breaker last closed: their number and when each started */
  private readonly inFlight = new Map<number, number>();
  /**
   * Counts the times the breaker closed. A call started before the last close (while the
   * dependency was failing) says nothing of its health now: its outcome is not counted.
   */
  private generation = 0;
  private watch: NodeJS.Timeout | null = null;
  private nextCall = 0;

  constructor(
    readonly dependency: string,
    private readonly settings: BreakerSettings,
    /**
     * milliseconds on a monotonic clock (performance.now): the breaker measures elapsed time, not
     * the service's business time, which tests may hold still
     */
    private readonly now: () => number = () => performance.now(),
    private readonly onChange: (from: BreakerState, to: BreakerState, why: string) => void = () => undefined,
  ) {}

  get state(): BreakerState {
    this.refresh();
    return this.state_;
  }

  /**
   * The refusal a call would get now, without taking a probe's place: while open (with the time
   * until a probe may go), or half open with every probe's place taken; null when it may try.
   */
  refusal(): CircuitOpenError | null {
    const state = this.state;
    if (state === 'open') return new CircuitOpenError(this.dependency, this.retryAfterMs());
    if (state === 'half_open' && this.probesInFlight >= this.settings.probes)
      return new CircuitOpenError(this.dependency, this.settings.openMs);
    return null;
  }

  /** The budget a probe may take (half open), or null outside probes. */
  probeBudgetMs(): number | null {
    return this.state === 'half_open' ? this.settings.slowCallMs : null;
  }

  /**
   * Runs `call` through the breaker. `failed(error)` says whether an error is the dependency's
   * (counted) or the request's own (not counted: a 400 says nothing of the dependency's health).
   */
  async run<T>(call: () => Promise<T>, failed: (error: unknown) => boolean): Promise<T> {
    const probe = this.admit();
    const id = this.nextCall++;
    const generation = this.generation;
    const started = this.now();
    this.inFlight.set(id, started);
    this.watchInFlight();
    try {
      const result = await call();
      this.settle(id, generation, started, false, probe);
      return result;
    } catch (error) {
      this.settle(id, generation, started, failed(error), probe);
      throw error;
    }
  }

  /** Whether this call may go; true when it goes as a probe. */
  private admit(): boolean {
    this.refresh();
    if (this.state_ === 'open') throw new CircuitOpenError(this.dependency, this.retryAfterMs());
    if (this.state_ === 'half_open') {
      if (this.probesInFlight >= this.settings.probes) {
        throw new CircuitOpenError(this.dependency, this.settings.openMs);
      }
      this.probesInFlight += 1;
      return true;
    }
    return false;
  }

  private retryAfterMs(): number {
    return Math.max(0, this.openedAt + this.settings.openMs - this.now());
  }

  /** Open long enough: half open. */
  private refresh(): void {
    if (this.state_ === 'open' && this.retryAfterMs() === 0)
      this.move('half_open', 'open long enough: probing');
  }

  private settle(id: number, generation: number, started: number, failed: boolean, probe: boolean): void {
    this.inFlight.delete(id);
    const now = this.now();
    const slow = now - started > this.settings.slowCallMs;
    if (probe) {
      this.probesInFlight -= 1;
      if (this.state_ !== 'half_open') return;
      if (failed || slow) this.open(failed ? 'a probe failed' : 'a probe was slow');
      else this.close();
      return;
    }
    if (this.state_ !== 'closed' || generation !== this.generation) return;
    this.failuresInARow = failed ? this.failuresInARow + 1 : 0;
    this.outcomes.push({ at: now, failed, slow });
    if (failed) this.failedInWindow += 1;
    if (slow) this.slowInWindow += 1;
    this.evaluate(now);
  }

  private evaluate(now: number): void {
    this.dropOutcomesBefore(now - this.settings.windowMs);
    const { minCalls, failureRate, slowRate, consecutiveFailures } = this.settings;
    if (this.failuresInARow >= consecutiveFailures) {
      return this.open(`${this.failuresInARow} failures in a row`);
    }
    const calls = this.outcomes.length - this.firstOutcome;
    if (calls < minCalls) return;
    const failures = this.failedInWindow;
    const slow = this.slowInWindow;
    if (failures / calls >= failureRate) this.open(`${failures} of ${calls} calls failed`);
    else if (slow / calls >= slowRate)
      this.open(`${slow} of ${calls} calls slower than ${this.settings.slowCallMs} ms`);
  }

  /** Outcomes older than `since` leave the window (the array is cut once half of it is gone). */
  private dropOutcomesBefore(since: number): void {
    while (this.firstOutcome < this.outcomes.length && this.outcomes[this.firstOutcome]!.at < since) {
      const gone = this.outcomes[this.firstOutcome]!;
      if (gone.failed) this.failedInWindow -= 1;
      if (gone.slow) this.slowInWindow -= 1;
      this.firstOutcome += 1;
    }
    if (this.firstOutcome > 1_000 && this.firstOutcome * 2 > this.outcomes.length) {
      this.outcomes = this.outcomes.slice(this.firstOutcome);
      this.firstOutcome = 0;
    }
  }

  private forgetOutcomes(): void {
    this.outcomes = [];
    this.firstOutcome = 0;
    this.failedInWindow = 0;
    this.slowInWindow = 0;
  }

  /**
   * While calls are in flight, looks every quarter of `slowCallMs` for too many of them past it: a
   * dependency that froze is seen before its calls time out.
   */
  private watchInFlight(): void {
    if (this.watch) return;
    this.watch = setInterval(
      () => {
        if (this.inFlight.size === 0) {
          clearInterval(this.watch!);
          this.watch = null;
          return;
        }
        if (this.state_ !== 'closed') return;
        const now = this.now();
        let stalled = 0;
        for (const started of this.inFlight.values()) if (now - started > this.settings.slowCallMs) stalled++;
        if (stalled >= this.settings.slowInFlight) {
          this.open(`${stalled} calls in flight past ${this.settings.slowCallMs} ms`);
        }
      },
      Math.max(10, this.settings.slowCallMs / 4),
    );
    this.watch.unref();
  }

  private open(why: string): void {
    this.openedAt = this.now();
    this.move('open', why);
  }

  private close(): void {
    this.forgetOutcomes();
    this.failuresInARow = 0;
    // the calls still in flight from before belong to the failure just over
    this.generation += 1;
    this.inFlight.clear();
    this.move('closed', 'a probe succeeded');
  }

  private move(to: BreakerState, why: string): void {
    const from = this.state_;
    if (from === to && to !== 'open') return;
    this.state_ = to;
    if (to === 'open') {
      this.forgetOutcomes();
      this.failuresInARow = 0;
    }
    if (from !== to) this.onChange(from, to, why);
  }
}

import type { EngineGuardsConfig } from '../config.js';
import { DependencyUnavailableError, isUnavailable, LoadShedError, UNAVAILABLE_MESSAGE } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics/metrics.js';
import { Bulkhead, BulkheadFullError } from '../resilience/bulkhead.js';
import { CircuitBreaker, CircuitOpenError, type BreakerState } from '../resilience/circuit-breaker.js';
import type { SearchEngine } from './engine.js';

/** What guards an engine: its breaker, and a lane for pages apart from one for statistics and lists. */
export interface EngineGuards {
  breaker: CircuitBreaker;
  /** searches (a page and its figures): what integrators wait on */
  pages: Bulkhead;
  /** the statistics endpoint and the stock-derived lists: heavier, and never allowed to starve pages */
  analytics: Bulkhead;
}

/** An error that speaks of the engine's health (counted by the breaker), not of the request. */
const dependencyFailed = (error: unknown): boolean =>
  error instanceof DependencyUnavailableError || isUnavailable(error);

const busy = () =>
  new LoadShedError(
    'ENGINE_BUSY',
    'O motor de pesquisa tem demasiados pedidos em curso. Tente novamente dentro de momentos.',
    'lane_full',
    1,
  );

/** The lanes of the engine's work (the routes name them: route.ts's EngineLane). */
type EngineLane = Exclude<keyof EngineGuards, 'breaker'>;

/** The engine behind its guards, which can also say at once whether a request would be refused. */
export interface GuardedEngine extends SearchEngine {
  /**
   * The refusal a request of `lane` gets now without asking the engine (its breaker open), counted
   * as one; null when it may go. The routes that need the engine ask this before the rate limit
   * and the body, so that while the engine is away a refusal costs next to nothing.
   */
  refusalNow(lane: EngineLane): LoadShedError | null;
}

/**
 * The engine behind its guards (issue 28): a request waits for a place in its lane (bounded: past
 * the short queue, 503 ENGINE_BUSY at once) and goes through the engine's circuit breaker (open:
 * 503 at once, with Retry-After until a probe may go). Both refuse before the engine is asked, so a
 * refused request charges nothing. A probe (the breaker half open) gets no more than the
 * breaker's slow-call time: a dependency that is still stalled reopens the breaker then, not at the
 * end of the whole budget.
 */
export function guardedEngine(
  engine: SearchEngine,
  guards: EngineGuards,
  refused: (lane: string, reason: 'busy' | 'open') => void = () => undefined,
): GuardedEngine {
  const { breaker } = guards;

  const openRefusal = (error: CircuitOpenError) =>
    new LoadShedError(
      'SERVICE_UNAVAILABLE',
      UNAVAILABLE_MESSAGE,
      'breaker_open',
      Math.max(1, Math.ceil(error.retryAfterMs / 1000)),
    );

  const translated = (lane: Bulkhead, error: unknown): never => {
    if (error instanceof CircuitOpenError) {
      refused(lane.lane, 'open');
      throw openRefusal(error);
    }
    if (error instanceof BulkheadFullError) {
      refused(lane.lane, 'busy');
      throw busy();
    }
    throw error;
  };

  const withinProbeBudget = <T>(call: () => Promise<T>): Promise<T> => {
    const budget = breaker.probeBudgetMs();
    if (budget === null) return call();
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      call(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new DependencyUnavailableError(engine.name, new Error('probe past its budget'))),
          budget,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  };

  /**
   * Whether a call of `lane` is refused now, before it waits for a place: the breaker open or its
   * probes all out; or probing with the lane full (its places held by calls the stalled engine has
   * not answered: a wait would end in a refusal anyway, and the probe's answer decides soon).
   */
  const refusalFor = (lane: Bulkhead): CircuitOpenError | null =>
    breaker.refusal() ??
    (breaker.state === 'half_open' && lane.full ? new CircuitOpenError(engine.name, 1_000) : null);

  const guarded = async <T>(lane: Bulkhead, call: () => Promise<T>): Promise<T> => {
    try {
      const refusal = refusalFor(lane);
      if (refusal) throw refusal;
      return await lane.run(() => breaker.run(() => withinProbeBudget(call), dependencyFailed));
    } catch (error) {
      return translated(lane, error);
    }
  };

  return {
    name: engine.name,
    refusalNow(lane) {
      const open = refusalFor(guards[lane]);
      if (!open) return null;
      refused(guards[lane].lane, 'open');
      return openRefusal(open);
    },
    search: (query, page) => guarded(guards.pages, () => engine.search(query, page)),
    pageAfter: (query, page) => guarded(guards.pages, () => engine.pageAfter(query, page)),
    stats: (query) => guarded(guards.analytics, () => engine.stats(query)),
    facets: (request) => guarded(guards.analytics, () => engine.facets(request)),
    async ping() {
      // a load balancer stops sending searches while the breaker is open (/ready is 503)
      if (breaker.state === 'open')
        throw new DependencyUnavailableError(engine.name, new Error('circuit open'));
      await engine.ping();
    },
    ...(engine.close ? { close: () => engine.close!() } : {}),
  };
}

/**
 * The guards of one engine from the configuration, their state changes logged and exported
 * (pss_breaker_state, pss_breaker_transitions_total, pss_engine_lane_requests).
 */
export function engineGuards(
  dependency: string,
  settings: EngineGuardsConfig,
  logger: Logger,
  metrics: Metrics,
): EngineGuards {
  const STATE_VALUE: Record<BreakerState, number> = { closed: 0, half_open: 1, open: 2 };
  metrics.breakerState.set({ dependency }, 0);
  const breaker = new CircuitBreaker(dependency, settings.breaker, undefined, (from, to, why) => {
    metrics.breakerState.set({ dependency }, STATE_VALUE[to]);
    metrics.breakerTransitions.inc({ dependency, to });
    const line = { dependency, from, to, why };
    if (to === 'open') {
      logger.warn(line, 'search engine circuit opened: requests are refused at once');
      // the calls already waiting for a place are refused now rather than at the end of their wait
      const refusal = new CircuitOpenError(dependency, settings.breaker.openMs);
      for (const waiting of [guards.pages, guards.analytics]) waiting.turnAway(refusal);
    } else
      logger.info(line, to === 'closed' ? 'search engine circuit closed' : 'search engine circuit probing');
  });
  const lane = (name: string, maxConcurrent: number) =>
    new Bulkhead(name, {
      maxConcurrent,
      maxQueued: settings.maxQueued,
      queueTimeoutMs: settings.queueTimeoutMs,
    });
  const guards = {
    breaker,
    pages: lane('pages', settings.pagesConcurrent),
    analytics: lane('analytics', settings.analyticsConcurrent),
  };
  metrics.watchLanes([guards.pages, guards.analytics]);
  return guards;
}

import type { Redis } from 'ioredis';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type RefusedLimit =
  'requests_per_minute' | 'requests_per_hour' | 'credential_failures' | 'login_failures' | 'registrations';

export interface MetricsSources {
  /** the PostgreSQL pool; null on PGlite */
  pool: pg.Pool | null;
  /** null without REDIS_URL */
  redis: Redis | null;
}

/**
 * The API's Prometheus metrics, one registry per services object (no module-level singletons: tests
 * run several apps in one process). Served on METRICS_PORT and/or at /metrics with METRICS_TOKEN.
 * Route labels are declared path patterns (`/data/catalog/vehicle-models/:makeId`), never the URL
 * as sent, so a caller cannot grow the series without end.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly requestDuration = new Histogram({
    name: 'pss_http_request_duration_seconds',
    help: 'Time from receiving a request to its response, by declared route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly creditsCharged = new Counter({
    name: 'pss_credits_charged_total',
    help: 'Credits debited for searches and price statistics',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly engineDuration = new Histogram({
    name: 'pss_engine_query_duration_seconds',
    help: 'Time of the search engine calls, by engine, kind (search, stats, facets) and outcome',
    labelNames: ['engine', 'kind', 'outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly breakerState = new Gauge({
    name: 'pss_breaker_state',
    help: "The search engine's circuit breaker: 0 closed, 1 half open (probing), 2 open (refusing at once)",
    labelNames: ['dependency'] as const,
    registers: [this.registry],
  });

  readonly breakerTransitions = new Counter({
    name: 'pss_breaker_transitions_total',
    help: "Changes of the search engine's circuit breaker, by the state it moved to",
    labelNames: ['dependency', 'to'] as const,
    registers: [this.registry],
  });

  readonly engineRefusals = new Counter({
    name: 'pss_engine_refusals_total',
    help: 'Requests refused before the engine was asked: lane full (busy) or breaker open (open)',
    labelNames: ['lane', 'reason'] as const,
    registers: [this.registry],
  });

  readonly rateLimitRefusals = new Counter({
    name: 'pss_rate_limit_refusals_total',
    help: 'Requests refused with 429, by the limit that refused them',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  constructor(sources: MetricsSources) {
    collectDefaultMetrics({ register: this.registry });
    const { pool, redis } = sources;
    if (pool) {
      new Gauge({
        name: 'pss_db_pool_connections',
        help: 'PostgreSQL pool: connections open (total), idle, and queries waiting for one (waiting)',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
        },
      });
    }
    if (redis) {
      new Gauge({
        name: 'pss_redis_up',
        help: '1 while the connection to Redis is ready, 0 while it is down (rate limits then count in memory)',
        registers: [this.registry],
        collect() {
          this.set(redis.status === 'ready' ? 1 : 0);
        },
      });
    }
  }

  /** Exports the engine's lanes: requests running and waiting in each. */
  watchLanes(lanes: { lane: string; inFlight: number; queued: number }[]): void {
    new Gauge({
      name: 'pss_engine_lane_requests',
      help: 'Engine requests per lane (pages, analytics): running (state=running) and waiting for a place (state=waiting)',
      labelNames: ['lane', 'state'] as const,
      registers: [this.registry],
      collect() {
        for (const l of lanes) {
          this.set({ lane: l.lane, state: 'running' }, l.inFlight);
          this.set({ lane: l.lane, state: 'waiting' }, l.queued);
        }
      },
    });
  }

  /** The exposition text and its content type. */
  async expose(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

/** The limit behind a 429 of the abuse guards, by its stable code (the request limits report themselves). */
export const GUARD_LIMITS: Record<string, RefusedLimit> = {
  TOO_MANY_CREDENTIAL_FAILURES: 'credential_failures',
  TOO_MANY_LOGIN_ATTEMPTS: 'login_failures',
  TOO_MANY_REGISTRATIONS: 'registrations',
};

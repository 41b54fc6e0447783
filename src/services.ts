import { Redis } from 'ioredis';
import type { Authenticator } from './principal.js';
import { createAccountService, type AccountService } from './accounts/accounts.js';
import { createApiKeysService, type ApiKeysService } from './accounts/api-keys.js';
import { createAuthenticator } from './accounts/authenticator.js';
import { CredentialCache } from './accounts/credential-cache.js';
import { createLoginService, type LoginService } from './accounts/login.js';
import { PasswordWork } from './accounts/password-work.js';
import { createRegistrationService, type RegistrationService } from './accounts/registration.js';
import { createCatalogService, type CatalogService } from './catalog/catalog-service.js';
import { systemClock, type Clock } from './clock.js';
import { resolveSearchTokenSecret, type Config } from './config.js';
import { createCreditsService, type CreditsService } from './credits/credits-service.js';
import { createSearchRecorder } from './credits/ledger.js';
import { openDatabase, pingDatabase, type Database, type DatabaseHandle } from './db/database.js';
import { CredentialFailureGuard, LoginGuard, RegistrationGuard } from './limits/abuse-guards.js';
import { IdempotencyStore } from './idempotency/idempotency-store.js';
import { LimiterFactory } from './limits/limiter-factory.js';
import { createRateLimiter, type RequestRateLimiter } from './limits/request-rate-limiter.js';
import { createLogger, type Logger } from './logger.js';
import { Metrics } from './metrics/metrics.js';
import { configuredPayments, type ConfiguredPayments } from './payments/create-provider.js';
import { createPaymentsService, type PaymentsService } from './payments/payments.js';
import { createSandboxCheckout, type SandboxCheckoutService } from './payments/sandbox-checkout.js';
import { createSearchEngine } from './search/create-engine.js';
import { engineGuards, guardedEngine, type GuardedEngine } from './search/guarded-engine.js';
import { measuredEngine } from './search/measured-engine.js';
import type { SearchEngine } from './search/engine.js';
import { createSearchService, type SearchService } from './search/search-service.js';
import { sharedReadiness, type Readiness, type ReadinessCheck } from './system/readiness.js';
import { toolRegistry, type ToolRegistry } from './tools/registry.js';
import { createSellersService, type SellersService } from './sellers/sellers.js';
import { FeedWorker } from './stock/feed-worker.js';
import { createStockFeeds, type StockFeeds } from './stock/stock-feeds.js';
import { createStockItems, type StockItems } from './stock/stock-items.js';
import { partNames } from './tools/stock-summary.js';
import { TextReader } from './tools/text-reader.js';

/** Everything the app and the workers use, built once and passed explicitly (no module singletons). */
export interface Services {
  config: Config;
  logger: Logger;
  clock: Clock;
  database: DatabaseHandle;
  db: Database;
  /** null when REDIS_URL is unset (embedded shape) */
  redis: Redis | null;
  /** prefix for every Redis key and queue this process writes (tests isolate themselves with it) */
  redisPrefix: string;
  /** the configured engine behind its breaker and lanes */
  engine: GuardedEngine;
  search: SearchService;
  authenticator: Authenticator;
  /**
   * credentials recently looked up; the accounts services announce each key or session they change
   * (to this process, and through Redis to the others)
   */
  credentials: CredentialCache;
  rateLimiter: RequestRateLimiter;
  credentialGuard: CredentialFailureGuard;
  login: LoginService;
  registration: RegistrationService;
  account: AccountService;
  apiKeys: ApiKeysService;
  credits: CreditsService;
  payments: PaymentsService;
  /** the sandbox provider's checkout page; null unless the sandbox is the provider */
  sandboxCheckout: SandboxCheckoutService | null;
  catalog: CatalogService;
  /** what POST /tools/execute runs, by slug */
  tools: ToolRegistry;
  /** the text-recognition workers of identificar-peca (started on the first image) */
  textReader: TextReader;
  /** Idempotency-Key responses, pruned after 24 hours */
  idempotency: IdempotencyStore;
  /** whether Postgres, Redis and the search cluster answer (for /ready) */
  readiness: Readiness;
  metrics: Metrics;
  /** sellers' profiles, and who may write whose stock */
  sellers: SellersService;
  /** a seller's items by SKU */
  stockItems: StockItems;
  /** a seller's feeds, as received and shown */
  stockFeeds: StockFeeds;
  /** the feeds' worker in this process: the embedded shape's (FEEDS_IN_PROCESS); else `npm run feeds` */
  feedWorker: FeedWorker | null;
  close(): Promise<void>;
}

/** Prefix of every Redis key and channel of a deployment (tests use their own). */
export const DEFAULT_REDIS_PREFIX = 'pss:';

export interface ServiceOverrides {
  clock?: Clock;
  logger?: Logger;
  database?: DatabaseHandle;
  redisPrefix?: string;
  engine?: SearchEngine;
  /** the payment provider instead of the configured one (a sandbox with a known secret) */
  payments?: ConfiguredPayments;
  /** a text reader shared by several apps (tests); the caller closes it */
  textReader?: TextReader;
}

export function connectRedis(url: string): Redis {
  // No offline queue: when Redis is down, commands fail at once and the callers fall back
  // (insurance rate limiter) instead of piling up behind a dead connection.
  // Auto-pipelining sends the commands issued in one tick (the minute and hour counters) in one write.
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
  });
  redis.on('error', () => {});
  return redis;
}

/**
 * Waits (briefly) for the first connection, so the first requests count in Redis rather than in
 * the insurance limiter. A Redis that is down at start-up does not stop the API: limits fall back
 * to memory until it answers, and /ready says it is down.
 */
async function untilReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.once('ready', done);
  });
}

export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? systemClock;
  const searchTokenSecret = resolveSearchTokenSecret(config);
  const database =
    overrides.database ??
    (await openDatabase({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: 20,
      preparedPerConnection: config.databasePreparedStatements,
    }));
  const db = database.db;
  const redis = config.redisUrl ? connectRedis(config.redisUrl) : null;
  if (redis) await untilReady(redis, 2_000);
  const redisPrefix = overrides.redisPrefix ?? DEFAULT_REDIS_PREFIX;
  const metrics = new Metrics({ pool: database.pool, redis });
  const measured = measuredEngine(
    overrides.engine ?? createSearchEngine(config, db, logger),
    metrics.engineDuration,
  );
  // bounded work in flight and a circuit breaker in front of the engine (docs/reliability.md)
  const engine = guardedEngine(
    measured,
    engineGuards(measured.name, config.engineGuards, logger, metrics),
    (lane, reason) => metrics.engineRefusals.inc({ lane, reason }),
  );
  const limiters = new LimiterFactory(redis, `${redisPrefix}rl:`, clock);
  const rateLimiter = createRateLimiter({
    config,
    limiters,
    clock,
    logger,
    onRefused: (limit) => metrics.rateLimitRefusals.inc({ limit }),
  });
  const credentials = new CredentialCache({
    ttlSeconds: config.credentialCacheSeconds,
    redis,
    redisPrefix,
    clock,
    logger,
  });
  await credentials.start();

  const idempotency = new IdempotencyStore(db, clock, logger);
  idempotency.start();
  const passwords = new PasswordWork(config.passwordHashing.concurrency, config.passwordHashing.queue);

  const readiness: ReadinessCheck[] = [{ name: 'postgres', check: () => pingDatabase(db) }];
  if (redis) readiness.push({ name: 'redis', check: async () => void (await redis.ping()) });
  // the engine's ping also says when its breaker is open (a load balancer then stops sending searches)
  readiness.push({
    name: engine.name === 'postgres' ? 'search_engine' : engine.name,
    check: () => engine.ping(),
  });
  // lazy: no worker (thread, model in memory) until the first image is read
  const textReader = overrides.textReader ?? new TextReader({ workers: config.toolOcr.workers });
  const { provider: paymentProvider, sandbox } = overrides.payments ?? configuredPayments(config, logger);
  // without purchases, an account out of credits is told to ask the operator, not to buy them
  const recorder = createSearchRecorder(db, { purchases: paymentProvider ? 'on' : 'off', logger });
  const search = createSearchService({ engine, clock, searchTokenSecret, recorder });
  const payments = createPaymentsService(db, clock, paymentProvider, config.publicBaseUrl);
  const sellers = createSellersService(db);
  const feedWorker = config.feeds.inProcess
    ? new FeedWorker(db, logger, {
        pool: database.pool,
        oneConnection: database.kind === 'pglite',
        maxBytes: config.feeds.maxBytes,
        staleSeconds: config.feeds.staleSeconds,
        maxLinesPerSecond: config.feeds.maxLinesPerSecond,
      })
    : null;
  await feedWorker?.start();

  return {
    config,
    logger,
    clock,
    database,
    db,
    redis,
    redisPrefix,
    engine,
    authenticator: createAuthenticator(db, clock, credentials, config.defaultPlan),
    credentials,
    rateLimiter,
    credentialGuard: new CredentialFailureGuard(limiters, config.rateLimits, clock, logger),
    login: createLoginService(
      db,
      clock,
      new LoginGuard(limiters, config.rateLimits, clock),
      passwords,
      credentials,
    ),
    registration: createRegistrationService(
      db,
      clock,
      new RegistrationGuard(limiters, config.rateLimits, clock),
      passwords,
    ),
    search,
    account: createAccountService(db, clock),
    apiKeys: createApiKeysService(db, clock, credentials, config.maxApiKeysPerAccount),
    credits: createCreditsService(db, clock),
    payments,
    sandboxCheckout: sandbox && createSandboxCheckout(db, clock, sandbox, payments, config.publicBaseUrl),
    catalog: createCatalogService(db, engine),
    tools: toolRegistry({
      engine,
      partNames: (ids) => partNames(db, ids),
      reader: textReader,
      timeoutMs: config.toolOcr.timeoutMs,
    }),
    textReader,
    idempotency,
    readiness: sharedReadiness(readiness),
    metrics,
    sellers,
    stockItems: createStockItems(db),
    stockFeeds: createStockFeeds(db, sellers, {
      maxBytes: config.feeds.maxBytes,
      maxBytesPerSecond: config.feeds.maxUploadBytesPerSecond,
    }),
    feedWorker,
    async close() {
      idempotency.stop();
      await feedWorker?.stop();
      await rateLimiter.close?.();
      await credentials.close();
      await engine.close?.();
      if (!overrides.textReader) await textReader.close();
      if (redis) redis.disconnect();
      if (!overrides.database) await database.close();
    },
  };
}

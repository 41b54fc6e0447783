import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { declaredRoutes, type AppOptions } from '../../src/app.js';
import { ManualClock, type Clock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createServices, type ServiceOverrides, type Services } from '../../src/services.js';
import { TestClient } from './test-client.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { TEST_REDIS_URL, type DatabaseKind } from './test-env.js';

export interface TestApp {
  services: Services;
  database: TestDatabase;
  server: RunningServer;
  baseUrl: string;
  /** anonymous client; .withApiKey()/.withBearer() for credentials */
  api: TestClient;
  clock: Clock;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** environment for loadConfig, on top of the test defaults */
  env?: Record<string, string>;
  /** use Redis (REDIS_URL must be set; callers skip otherwise) */
  redis?: boolean;
  clock?: ManualClock;
  overrides?: Omit<ServiceOverrides, 'database' | 'clock'>;
  /** reuse a database (several apps on one database) instead of creating one */
  database?: TestDatabase;
  /** the database to create when none is given (default: PostgreSQL when DATABASE_URL is set) */
  databaseKind?: DatabaseKind;
  app?: AppOptions;
  /** the port to listen on (default: any free one) */
  port?: number;
}

/** Config for tests: embedded defaults, quiet logs, a fixed token secret, an ephemeral port. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    SEARCH_TOKEN_SECRET: 'test-secret-test-secret-test-secret-0123',
    SEED_DEMO_DATA: 'false',
    SHUTDOWN_TIMEOUT_MS: '2000',
    STATS_CACHE_SECONDS: '0',
    // Limits out of the way unless a test is about them (it passes its own values in env).
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_HOUR: '1000000',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
    REGISTRATIONS_PER_IP_PER_HOUR: '1000000',
    TOOL_RATE_LIMIT_PER_MINUTE: '1000000',
    ...env,
  });
}

/** A running app on a random port over its own freshly migrated database. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(options.databaseKind));
  const env = { ...(options.redis && TEST_REDIS_URL ? { REDIS_URL: TEST_REDIS_URL } : {}), ...options.env };
  const config = testConfig(env);
  const clock = options.clock ?? new ManualClock();
  const services = await createServices(config, {
    logger: pino({ level: 'silent' }),
    redisPrefix: `test:${randomBytes(4).toString('hex')}:`,
    ...options.overrides,
    database: database.handle,
    clock,
  });
  const server = await startServer(services, options.port ?? 0, '127.0.0.1', options.app);
  const api = new TestClient(server.url, declaredRoutes(services, options.app?.extraRoutes));
  return {
    services,
    database,
    server,
    baseUrl: server.url,
    api,
    clock,
    async close() {
      await server.close();
      if (!options.database) await database.drop();
    },
  };
}

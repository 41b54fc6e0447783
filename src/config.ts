import { randomBytes, X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';

/**
 * Every setting of the service, read once from the environment and validated at start-up.
 * Nothing else in the code base reads process.env: everything takes a Config.
 */
export interface Config {
  port: number;
  host: string;
  /** null = embedded PGlite under dataDir */
  databaseUrl: string | null;
  dataDir: string;
  /** null = in-memory rate limits (the indexer needs Redis) */
  redisUrl: string | null;
  searchEngine: 'postgres' | 'opensearch';
  /** the OpenSearch cluster (OPENSEARCH_URL and its credentials and CA); null = none configured */
  opensearch: ClusterConnection | null;
  /** alias the OpenSearch engine reads and the indexer writes behind */
  opensearchIndex: string;
  /** what one search, statistics or list may take on the cluster in all before the caller gets 503 */
  opensearchTimeoutMs: number;
  /** primary shards of an index the indexer builds (taken at its next rebuild; mappings/stock.json's when unset) */
  opensearchShards: number | null;
  searchTokenSecret: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** load demo data (catalog + stock + demo account) into an empty database on start */
  seedDemoData: boolean;
  demoItems: number;
  publicBaseUrl: string;
  trustProxy: boolean;
  /** proxies in front of the API whose X-Forwarded-For entries are trusted (read from the right) */
  trustProxyHops: number;
  rateLimits: {
    perMinute: number;
    perHour: number;
    publicPerMinute: number;
    registrationsPerIpPerHour: number;
    loginFailuresPerWindow: number;
    loginFailureWindowSeconds: number;
    credentialFailuresPerIpPerMinute: number;
    /** GET /ready, per IP (health checkers) */
    readyPerIpPerMinute: number;
    /** POST /payments/webhook, per IP (the payment provider) */
    webhookPerIpPerMinute: number;
  };
  /** the plan of an account without its own (sql/0027): RATE_LIMIT_PER_MINUTE/HOUR, PLAN_DAILY_CREDITS */
  defaultPlan: { perMinute: number; perHour: number; dailyCredits: number | null };
  /** live (non-revoked) API keys an account may hold */
  maxApiKeysPerAccount: number;
  /** POST /tools/execute per account per minute, on top of the account's plan */
  toolRateLimitPerMinute: number;
  /**
   * reading labels in identificar-peca: tesseract workers (threads, each holding its model) and
   * the time one image may take, waiting for a worker included, before the tool answers without it
   */
  toolOcr: { workers: number; timeoutMs: number };
  /** the payment provider of credit purchases; null = purchases off (503) */
  payments: PaymentsConfig | null;
  shutdownTimeoutMs: number;
  /** seconds a JSON body may take to arrive whole (BODY_TIMEOUT_SECONDS) */
  bodyTimeoutSeconds: number;
  /** seconds a seller's feed (an upload) may take to arrive whole (UPLOAD_TIMEOUT_SECONDS) */
  uploadTimeoutSeconds: number;
  /** seconds either engine reuses a query's price statistics and breakdowns (0 = never) */
  statsCacheSeconds: number;
  /** named prepared statements each PostgreSQL connection keeps (0 = none) */
  databasePreparedStatements: number;
  /** seconds an API process trusts a credential it has looked up (0 = look up every request) */
  credentialCacheSeconds: number;
  /** port of a listener serving only GET /metrics (on HOST); null = none */
  metricsPort: number | null;
  /** bearer token for GET /metrics on the API's own port; null = not served there */
  metricsToken: string | null;
  /** scrypt hashes (registrations, logins) run at once per process, and how many may wait */
  passwordHashing: { concurrency: number; queue: number };
  /** Strict-Transport-Security max-age on every response; 0 = not sent */
  hstsMaxAgeSeconds: number;
  /** the indexer process (npm run indexer): docs/opensearch.md, "Guarantees" */
  indexer: IndexerConfig;
  /** the search engine's guards: bounded work in flight and its circuit breaker (docs/reliability.md) */
  engineGuards: EngineGuardsConfig;
  /** sellers' stock feeds (docs/stock-feeds.md) */
  feeds: FeedsConfig;
}

/**
 * How every process reaches the OpenSearch cluster: the API's engine, the indexer, `reindex`,
 * `index:verify` and the scripts build their client from this (src/search/opensearch/cluster-client.ts).
 */
export interface ClusterConnection {
  /**
   * the nodes' addresses (OPENSEARCH_URL, comma-separated), credentials taken out: the client sends
   * each request to the next live one in turn and puts a node that failed aside until it answers a ping
   */
  nodes: string[];
  /** basic authentication (OPENSEARCH_USERNAME/OPENSEARCH_PASSWORD, or user:password@ in the URL) */
  auth: { username: string; password: string } | null;
  /** the PEM certificate(s) of the CA the nodes' TLS certificates are checked against (OPENSEARCH_CA_FILE) */
  ca: string | null;
  caFile: string | null;
  /** false only when OPENSEARCH_TLS_REJECT_UNAUTHORIZED=false: any certificate accepted (a warning at start) */
  rejectUnauthorized: boolean;
}

export interface FeedsConfig {
  /** the most a feed's body may have, in bytes, as sent (compressed or not) and once uncompressed */
  maxBytes: number;
  /**
   * whether the API process applies feeds itself: the embedded shape's (one process over PGlite);
   * with PostgreSQL, `npm run feeds` is the worker and the API only receives them
   */
  inProcess: boolean;
  /** seconds a feed's worker may go without a heartbeat before another worker takes the feed over */
  staleSeconds: number;
  /**
   * the feed worker process's nice value (0 to 19): on a host it shares with the API, its
   * parsing yields the CPU to searches
   */
  nice: number;
  /**
   * the most lines a second the worker reads and writes of a feed (0: as fast as it can): the
   * database's work for a feed takes a core at full speed, and the WAL it writes delays every
   * commit meanwhile, the searches' charges among them
   */
  maxLinesPerSecond: number;
  /** how fast the API reads a feed's body, bytes a second (0: no limit) */
  maxUploadBytesPerSecond: number;
}

export interface EngineGuardsConfig {
  /** page searches running at once per process, and statistics and lists apart */
  pagesConcurrent: number;
  analyticsConcurrent: number;
  /** requests waiting for a place at most (per lane), and how long each may wait */
  maxQueued: number;
  queueTimeoutMs: number;
  breaker: {
    windowMs: number;
    minCalls: number;
    /** 0..1 */
    failureRate: number;
    consecutiveFailures: number;
    slowCallMs: number;
    /** 0..1 */
    slowRate: number;
    slowInFlight: number;
    openMs: number;
    probes: number;
  };
}

export interface IndexerConfig {
  /** seconds a change handed to the queue waits for the index's confirmation before it is handed out again */
  leaseSeconds: number;
  /** owed changes per job (one bulk request each) */
  batchSize: number;
  /** bulk requests in flight */
  concurrency: number;
  /** the wait after a passing failure (cluster or database away) starts here and doubles up to the maximum */
  retryFirstMs: number;
  retryMaxMs: number;
  /** BullMQ attempts of a job failing for an error of our own (a passing cause spends none) */
  jobAttempts: number;
  /** a worker's job lock; a killed worker's job is taken over after about this long */
  lockMs: number;
  /** seconds before a document the cluster refused for its content is tried again */
  rejectedRetrySeconds: number;
  /** one verification sweep over every id range per this many seconds; 0 = no sweep */
  sweepPeriodSeconds: number;
  /** items per verified range */
  sweepRangeSize: number;
  /** the indexer's /ready is 503 while the oldest unconfirmed change is older than this */
  readyMaxLagSeconds: number;
}

/**
 * The hosted checkout purchases go through (src/payments/provider.ts). `sandbox`: a checkout page the
 * API serves itself, for a server without a real provider; `stripe`: Stripe Checkout.
 */
export type PaymentsConfig =
  | { provider: 'sandbox' }
  | {
      provider: 'stripe';
      secretKey: string;
      webhookSecret: string;
      /** Stripe's API elsewhere (a stand-in in tests): STRIPE_API_BASE */
      apiBase: { protocol: 'http' | 'https'; host: string; port: number } | null;
    };

/** Environment variables, their defaults and their schema. The key is the variable's name. */
const variables = {
  PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000 },
  HOST: { type: 'string', minLength: 1, default: '0.0.0.0' },
  DATABASE_URL: { type: 'string', pattern: '^postgres(ql)?://' },
  DATA_DIR: { type: 'string', minLength: 1, default: '.data' },
  REDIS_URL: { type: 'string', pattern: '^rediss?://' },
  SEARCH_ENGINE: { type: 'string', enum: ['postgres', 'opensearch'], default: 'postgres' },
  // one address or several, comma-separated: checked one by one (clusterConnection)
  OPENSEARCH_URL: { type: 'string', minLength: 1 },
  OPENSEARCH_USERNAME: { type: 'string', minLength: 1 },
  OPENSEARCH_PASSWORD: { type: 'string', minLength: 1 },
  OPENSEARCH_CA_FILE: { type: 'string', minLength: 1 },
  OPENSEARCH_TLS_REJECT_UNAUTHORIZED: { type: 'boolean', default: true },
  OPENSEARCH_INDEX: { type: 'string', pattern: '^[a-z0-9_-]+$', default: 'stock' },
  OPENSEARCH_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 60_000, default: 5_000 },
  OPENSEARCH_SHARDS: { type: 'integer', minimum: 1, maximum: 64 },
  SEARCH_TOKEN_SECRET: { type: 'string', minLength: 32 },
  LOG_LEVEL: {
    type: 'string',
    enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
  },
  SEED_DEMO_DATA: { type: 'boolean' },
  FEED_MAX_MB: { type: 'integer', minimum: 1, maximum: 4_096, default: 256 },
  FEEDS_IN_PROCESS: { type: 'boolean' },
  FEED_STALE_SECONDS: { type: 'integer', minimum: 1, maximum: 3_600, default: 60 },
  FEEDS_NICE: { type: 'integer', minimum: 0, maximum: 19, default: 10 },
  FEEDS_MAX_LINES_PER_SECOND: { type: 'integer', minimum: 0, maximum: 10_000_000, default: 0 },
  FEEDS_MAX_UPLOAD_MB_PER_SECOND: { type: 'integer', minimum: 0, maximum: 100_000, default: 0 },
  DEMO_ITEMS: { type: 'integer', minimum: 0, maximum: 10_000_000, default: 50_000 },
  PUBLIC_BASE_URL: { type: 'string', pattern: '^https?://' },
  TRUST_PROXY: { type: 'boolean', default: false },
  TRUST_PROXY_HOPS: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
  RATE_LIMIT_PER_MINUTE: { type: 'integer', minimum: 1, default: 60 },
  RATE_LIMIT_PER_HOUR: { type: 'integer', minimum: 1, default: 1000 },
  PLAN_DAILY_CREDITS: { type: 'integer', minimum: 1 },
  MAX_API_KEYS_PER_ACCOUNT: { type: 'integer', minimum: 1, maximum: 10_000, default: 20 },
  TOOL_RATE_LIMIT_PER_MINUTE: { type: 'integer', minimum: 1, default: 10 },
  TOOL_OCR_WORKERS: { type: 'integer', minimum: 1, maximum: 16, default: 1 },
  TOOL_OCR_TIMEOUT_MS: { type: 'integer', minimum: 1, maximum: 120_000, default: 8_000 },
  PUBLIC_RATE_LIMIT_PER_MINUTE: { type: 'integer', minimum: 1, default: 120 },
  REGISTRATIONS_PER_IP_PER_HOUR: { type: 'integer', minimum: 1, default: 5 },
  LOGIN_FAILURES_PER_WINDOW: { type: 'integer', minimum: 1, default: 10 },
  LOGIN_FAILURE_WINDOW_SECONDS: { type: 'integer', minimum: 1, default: 900 },
  CREDENTIAL_FAILURES_PER_IP_PER_MINUTE: { type: 'integer', minimum: 1, default: 30 },
  READY_RATE_LIMIT_PER_MINUTE: { type: 'integer', minimum: 1, default: 120 },
  WEBHOOK_RATE_LIMIT_PER_MINUTE: { type: 'integer', minimum: 1, default: 600 },
  PAYMENT_PROVIDER: { type: 'string', enum: ['none', 'sandbox', 'stripe'] },
  STRIPE_SECRET_KEY: { type: 'string', pattern: '^(sk|rk)_' },
  STRIPE_WEBHOOK_SECRET: { type: 'string', pattern: '^whsec_' },
  STRIPE_API_BASE: { type: 'string', pattern: '^https?://[^/]+/?$' },
  // retired (the generic provider): set, the start fails naming the replacement
  PAYMENT_WEBHOOK_SECRET: { type: 'string' },
  PAYMENT_CHECKOUT_URL: { type: 'string' },
  SHUTDOWN_TIMEOUT_MS: { type: 'integer', minimum: 0, default: 10_000 },
  BODY_TIMEOUT_SECONDS: { type: 'integer', minimum: 1, maximum: 600, default: 30 },
  UPLOAD_TIMEOUT_SECONDS: { type: 'integer', minimum: 5, maximum: 86_400, default: 3_600 },
  STATS_CACHE_SECONDS: { type: 'integer', minimum: 0, maximum: 3600, default: 30 },
  DATABASE_PREPARED_STATEMENTS: { type: 'integer', minimum: 0, maximum: 10_000, default: 200 },
  CREDENTIAL_CACHE_SECONDS: { type: 'integer', minimum: 0, maximum: 300, default: 10 },
  METRICS_PORT: { type: 'integer', minimum: 0, maximum: 65535 },
  METRICS_TOKEN: { type: 'string', minLength: 16 },
  PASSWORD_HASH_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 64, default: 1 },
  PASSWORD_HASH_QUEUE: { type: 'integer', minimum: 0, maximum: 1000, default: 4 },
  HSTS_MAX_AGE_SECONDS: { type: 'integer', minimum: 0, maximum: 63_072_000, default: 0 },
  INDEXER_LEASE_SECONDS: { type: 'integer', minimum: 1, maximum: 86_400, default: 120 },
  INDEXER_BATCH_SIZE: { type: 'integer', minimum: 1, maximum: 10_000, default: 1_000 },
  INDEXER_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 64, default: 4 },
  INDEXER_RETRY_FIRST_MS: { type: 'integer', minimum: 10, maximum: 30_000, default: 1_000 },
  INDEXER_RETRY_MAX_MS: { type: 'integer', minimum: 10, maximum: 30_000, default: 30_000 },
  INDEXER_JOB_ATTEMPTS: { type: 'integer', minimum: 1, maximum: 100, default: 5 },
  INDEXER_LOCK_MS: { type: 'integer', minimum: 100, maximum: 600_000, default: 30_000 },
  INDEXER_REJECTED_RETRY_SECONDS: { type: 'integer', minimum: 1, maximum: 86_400, default: 600 },
  INDEXER_SWEEP_PERIOD_SECONDS: { type: 'integer', minimum: 0, maximum: 604_800, default: 600 },
  INDEXER_SWEEP_RANGE_SIZE: { type: 'integer', minimum: 10, maximum: 10_000, default: 5_000 },
  INDEXER_READY_MAX_LAG_SECONDS: { type: 'integer', minimum: 1, maximum: 86_400, default: 60 },
  ENGINE_MAX_CONCURRENT: { type: 'integer', minimum: 1, maximum: 10_000, default: 32 },
  ENGINE_ANALYTICS_MAX_CONCURRENT: { type: 'integer', minimum: 1, maximum: 10_000, default: 8 },
  ENGINE_MAX_QUEUED: { type: 'integer', minimum: 0, maximum: 100_000, default: 64 },
  ENGINE_QUEUE_TIMEOUT_MS: { type: 'integer', minimum: 0, maximum: 60_000, default: 250 },
  BREAKER_WINDOW_MS: { type: 'integer', minimum: 100, maximum: 600_000, default: 10_000 },
  BREAKER_MIN_CALLS: { type: 'integer', minimum: 1, maximum: 100_000, default: 10 },
  BREAKER_FAILURE_RATE: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  BREAKER_CONSECUTIVE_FAILURES: { type: 'integer', minimum: 1, maximum: 100_000, default: 5 },
  BREAKER_SLOW_CALL_MS: { type: 'integer', minimum: 10, maximum: 600_000, default: 1_500 },
  BREAKER_SLOW_RATE: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  BREAKER_SLOW_IN_FLIGHT: { type: 'integer', minimum: 1, maximum: 100_000, default: 4 },
  BREAKER_OPEN_MS: { type: 'integer', minimum: 10, maximum: 600_000, default: 2_000 },
  BREAKER_PROBES: { type: 'integer', minimum: 1, maximum: 1_000, default: 2 },
} as const;

type VariableName = keyof typeof variables;

const describe: Record<string, (schema: Record<string, unknown>) => string> = {
  type: (s) =>
    s.type === 'integer'
      ? 'deve ser um número inteiro'
      : s.type === 'boolean'
        ? 'deve ser true ou false'
        : 'tem tipo inválido',
  minimum: (s) => `deve ser no mínimo ${String(s.minimum)}`,
  maximum: (s) => `deve ser no máximo ${String(s.maximum)}`,
  enum: (s) => `deve ser um de: ${(s.enum as string[]).join(', ')}`,
  pattern: (s) => `tem formato inválido (esperado: ${String(s.pattern)})`,
  minLength: (s) => `deve ter pelo menos ${String(s.minLength)} caracteres`,
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: false });
const validateEnv = ajv.compile({ type: 'object', properties: variables, additionalProperties: true });

/**
 * The provider: PAYMENT_PROVIDER when set; otherwise Stripe when its key is set, the sandbox in the
 * embedded shape (no DATABASE_URL: `npm start` buys credits end to end), and none with a production
 * database: a real server never offers a fake checkout unless told to.
 */
function paymentsConfig(v: Record<string, string | undefined>, embedded: boolean): PaymentsConfig | null {
  const retired = ['PAYMENT_CHECKOUT_URL', 'PAYMENT_WEBHOOK_SECRET'].filter((name) => v[name] !== undefined);
  if (retired.length) {
    throw new ConfigError(
      `Configuração inválida: ${retired.join(' e ')} ${retired.length > 1 ? 'foram retirados' : 'foi retirado'} (o fornecedor genérico); use PAYMENT_PROVIDER=stripe com STRIPE_SECRET_KEY e STRIPE_WEBHOOK_SECRET, ou PAYMENT_PROVIDER=sandbox`,
    );
  }
  const chosen = v.PAYMENT_PROVIDER ?? (v.STRIPE_SECRET_KEY ? 'stripe' : embedded ? 'sandbox' : 'none');
  if (chosen === 'none') return null;
  if (chosen === 'sandbox') return { provider: 'sandbox' };
  for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
    if (!v[name]) {
      throw new ConfigError(`Configuração inválida: ${name} é obrigatório quando PAYMENT_PROVIDER=stripe`);
    }
  }
  const base = v.STRIPE_API_BASE ? new URL(v.STRIPE_API_BASE) : null;
  return {
    provider: 'stripe',
    secretKey: v.STRIPE_SECRET_KEY!,
    webhookSecret: v.STRIPE_WEBHOOK_SECRET!,
    apiBase: base && {
      protocol: base.protocol === 'http:' ? 'http' : 'https',
      host: base.hostname,
      port: Number(base.port) || (base.protocol === 'http:' ? 80 : 443),
    },
  };
}

/** An address as it may be shown: its password (if any) hidden. */
const shown = (address: string): string => address.replace(/\/\/[^/@]*@/, '//***@');

/**
 * The cluster's addresses, credentials and CA from OPENSEARCH_URL, OPENSEARCH_USERNAME,
 * OPENSEARCH_PASSWORD, OPENSEARCH_CA_FILE and OPENSEARCH_TLS_REJECT_UNAUTHORIZED; null without
 * OPENSEARCH_URL. Every address must be an http(s) URL, all of one scheme (a cluster's HTTP layer
 * has TLS on every node or on none). Credentials may also come inside the URL (user:password@, the
 * client's own form): they are taken out of the addresses, which the client shows in its errors,
 * and sent as basic authentication to every node. The CA file is read here, at start: a missing or
 * unreadable file, or one without a PEM certificate, stops the process now rather than failing
 * the first request. Also for the scripts, which read only these variables.
 */
export function clusterConnection(env: Record<string, string | undefined>): ClusterConnection | null {
  const list = env.OPENSEARCH_URL?.trim();
  if (!list) return null;
  const invalid = (what: string) => new ConfigError(`Configuração inválida: ${what}`);
  const nodes: string[] = [];
  const fromUrls: { username: string; password: string }[] = [];
  for (const entry of list.split(',').map((e) => e.trim())) {
    const url = URL.canParse(entry) ? new URL(entry) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
      throw invalid(
        `OPENSEARCH_URL tem um endereço inválido: ${JSON.stringify(shown(entry))} (esperado: http(s)://anfitrião:porta, vários separados por vírgulas)`,
      );
    }
    if (url.username || url.password) {
      fromUrls.push({
        username: decodeURIComponent(url.username),
        password: decodeURIComponent(url.password),
      });
      url.username = '';
      url.password = '';
    }
    const address = url.toString().replace(/\/$/, '');
    if (nodes.includes(address)) {
      throw invalid(`OPENSEARCH_URL tem o endereço ${JSON.stringify(address)} mais de uma vez`);
    }
    nodes.push(address);
  }
  const schemes = new Set(nodes.map((n) => new URL(n).protocol));
  if (schemes.size > 1) {
    throw invalid(
      'OPENSEARCH_URL mistura endereços http:// e https:// (use o mesmo esquema em todos os nós)',
    );
  }
  const https = schemes.has('https:');

  const username = env.OPENSEARCH_USERNAME || undefined;
  const password = env.OPENSEARCH_PASSWORD || undefined;
  if (Boolean(username) !== Boolean(password)) {
    throw invalid('OPENSEARCH_USERNAME e OPENSEARCH_PASSWORD definem-se juntos (autenticação básica)');
  }
  let auth: ClusterConnection['auth'] = username && password ? { username, password } : null;
  if (fromUrls.length > 0) {
    if (auth) {
      throw invalid(
        'OPENSEARCH_URL traz credenciais (utilizador:senha@) e OPENSEARCH_USERNAME também está definido: use só um dos dois',
      );
    }
    const [first] = fromUrls;
    if (
      fromUrls.length !== nodes.length ||
      fromUrls.some((c) => c.username !== first!.username || c.password !== first!.password)
    ) {
      throw invalid(
        'OPENSEARCH_URL traz credenciais diferentes (ou só em alguns endereços): um cluster tem um utilizador',
      );
    }
    if (!first!.password) {
      throw invalid('OPENSEARCH_URL traz um utilizador sem senha (esperado: utilizador:senha@)');
    }
    auth = first!;
  }

  const caFile = env.OPENSEARCH_CA_FILE ? resolve(env.OPENSEARCH_CA_FILE) : null;
  let ca: string | null = null;
  if (caFile) {
    if (!https) {
      throw invalid('OPENSEARCH_CA_FILE só serve com endereços https:// em OPENSEARCH_URL');
    }
    try {
      ca = readFileSync(caFile, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw invalid(
        code === 'ENOENT'
          ? `OPENSEARCH_CA_FILE não existe: ${caFile}`
          : `OPENSEARCH_CA_FILE não pode ser lido: ${caFile} (${code ?? (error as Error).message})`,
      );
    }
    try {
      if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no PEM certificate');
      new X509Certificate(ca);
    } catch {
      throw invalid(
        `OPENSEARCH_CA_FILE não contém um certificado PEM (-----BEGIN CERTIFICATE-----): ${caFile}`,
      );
    }
  }
  const reject = env.OPENSEARCH_TLS_REJECT_UNAUTHORIZED?.trim().toLowerCase();
  if (reject !== undefined && reject !== '' && reject !== 'true' && reject !== 'false') {
    throw invalid(
      `OPENSEARCH_TLS_REJECT_UNAUTHORIZED deve ser true ou false (recebido: ${JSON.stringify(env.OPENSEARCH_TLS_REJECT_UNAUTHORIZED)})`,
    );
  }
  return { nodes, auth, ca, caFile, rejectUnauthorized: reject !== 'false' };
}

/**
 * The share of UPLOAD_TIMEOUT_SECONDS a paced upload of the largest feed may take at most: the
 * pace alone must not bring an upload near its deadline, since a client's own link adds to it.
 */
const PACED_SHARE_OF_UPLOAD_TIMEOUT = 0.8;

/** Reads and validates the environment. Throws ConfigError with one line naming the bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const name of Object.keys(variables)) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[name] = value;
  }
  if (!validateEnv(raw)) {
    const error = validateEnv.errors![0]!;
    const name = error.instancePath.replace(/^\//, '') as VariableName;
    const schema = variables[name] as unknown as Record<string, unknown>;
    const text = describe[error.keyword]?.(schema) ?? error.message ?? 'é inválida';
    // a secret is never echoed back
    const received =
      name === 'OPENSEARCH_PASSWORD' ? '***' : name === 'OPENSEARCH_URL' ? shown(env[name]!) : env[name];
    throw new ConfigError(`Configuração inválida: ${name} ${text} (recebido: ${JSON.stringify(received)})`);
  }
  const v = raw as Record<VariableName, never>;
  const databaseUrl = (v.DATABASE_URL as string | undefined) ?? null;
  const searchEngine = v.SEARCH_ENGINE as Config['searchEngine'];
  const opensearch = clusterConnection(env);
  if (searchEngine === 'opensearch' && !opensearch) {
    throw new ConfigError(
      'Configuração inválida: OPENSEARCH_URL é obrigatório quando SEARCH_ENGINE=opensearch',
    );
  }
  const uploadPace = v.FEEDS_MAX_UPLOAD_MB_PER_SECOND as number;
  const largestFeedMb = v.FEED_MAX_MB as number;
  const pacedSecondsAtMost = Math.floor((v.UPLOAD_TIMEOUT_SECONDS as number) * PACED_SHARE_OF_UPLOAD_TIMEOUT);
  if (uploadPace > 0 && largestFeedMb / uploadPace > pacedSecondsAtMost) {
    throw new ConfigError(
      `Configuração inválida: a ${uploadPace} MB/s (FEEDS_MAX_UPLOAD_MB_PER_SECOND), um feed de ${largestFeedMb} MB (FEED_MAX_MB) levaria ${Math.ceil(largestFeedMb / uploadPace)} s a chegar, mais do que os ${pacedSecondsAtMost} s que lhe cabem (80 % de UPLOAD_TIMEOUT_SECONDS): use pelo menos ${Math.ceil(largestFeedMb / pacedSecondsAtMost)} MB/s`,
    );
  }
  const port = v.PORT as number;
  return {
    port,
    host: v.HOST,
    databaseUrl,
    dataDir: resolve(v.DATA_DIR as string),
    redisUrl: (v.REDIS_URL as string | undefined) ?? null,
    searchEngine,
    opensearch,
    opensearchIndex: v.OPENSEARCH_INDEX,
    opensearchTimeoutMs: v.OPENSEARCH_TIMEOUT_MS,
    opensearchShards: (v.OPENSEARCH_SHARDS as number | undefined) ?? null,
    searchTokenSecret: (v.SEARCH_TOKEN_SECRET as string | undefined) ?? null,
    logLevel: v.LOG_LEVEL,
    // Demo data is the embedded default's point; a production database is never filled by surprise.
    seedDemoData: (v.SEED_DEMO_DATA as boolean | undefined) ?? databaseUrl === null,
    demoItems: v.DEMO_ITEMS,
    publicBaseUrl: (v.PUBLIC_BASE_URL as string | undefined) ?? `http://localhost:${port}`,
    trustProxy: v.TRUST_PROXY,
    trustProxyHops: v.TRUST_PROXY_HOPS,
    rateLimits: {
      perMinute: v.RATE_LIMIT_PER_MINUTE,
      perHour: v.RATE_LIMIT_PER_HOUR,
      publicPerMinute: v.PUBLIC_RATE_LIMIT_PER_MINUTE,
      registrationsPerIpPerHour: v.REGISTRATIONS_PER_IP_PER_HOUR,
      loginFailuresPerWindow: v.LOGIN_FAILURES_PER_WINDOW,
      loginFailureWindowSeconds: v.LOGIN_FAILURE_WINDOW_SECONDS,
      credentialFailuresPerIpPerMinute: v.CREDENTIAL_FAILURES_PER_IP_PER_MINUTE,
      readyPerIpPerMinute: v.READY_RATE_LIMIT_PER_MINUTE,
      webhookPerIpPerMinute: v.WEBHOOK_RATE_LIMIT_PER_MINUTE,
    },
    defaultPlan: {
      perMinute: v.RATE_LIMIT_PER_MINUTE,
      perHour: v.RATE_LIMIT_PER_HOUR,
      dailyCredits: (v.PLAN_DAILY_CREDITS as number | undefined) ?? null,
    },
    maxApiKeysPerAccount: v.MAX_API_KEYS_PER_ACCOUNT,
    toolRateLimitPerMinute: v.TOOL_RATE_LIMIT_PER_MINUTE,
    toolOcr: { workers: v.TOOL_OCR_WORKERS, timeoutMs: v.TOOL_OCR_TIMEOUT_MS },
    payments: paymentsConfig(v as Record<string, string | undefined>, databaseUrl === null),
    shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
    bodyTimeoutSeconds: v.BODY_TIMEOUT_SECONDS,
    uploadTimeoutSeconds: v.UPLOAD_TIMEOUT_SECONDS,
    statsCacheSeconds: v.STATS_CACHE_SECONDS,
    databasePreparedStatements: v.DATABASE_PREPARED_STATEMENTS,
    credentialCacheSeconds: v.CREDENTIAL_CACHE_SECONDS,
    metricsPort: (v.METRICS_PORT as number | undefined) ?? null,
    metricsToken: (v.METRICS_TOKEN as string | undefined) ?? null,
    passwordHashing: { concurrency: v.PASSWORD_HASH_CONCURRENCY, queue: v.PASSWORD_HASH_QUEUE },
    hstsMaxAgeSeconds: v.HSTS_MAX_AGE_SECONDS,
    feeds: {
      maxBytes: largestFeedMb * 1024 * 1024,
      inProcess: (v.FEEDS_IN_PROCESS as boolean | undefined) ?? databaseUrl === null,
      staleSeconds: v.FEED_STALE_SECONDS as number,
      nice: v.FEEDS_NICE as number,
      maxLinesPerSecond: v.FEEDS_MAX_LINES_PER_SECOND as number,
      maxUploadBytesPerSecond: (v.FEEDS_MAX_UPLOAD_MB_PER_SECOND as number) * 1024 * 1024,
    },
    indexer: {
      leaseSeconds: v.INDEXER_LEASE_SECONDS,
      batchSize: v.INDEXER_BATCH_SIZE,
      concurrency: v.INDEXER_CONCURRENCY,
      retryFirstMs: v.INDEXER_RETRY_FIRST_MS,
      retryMaxMs: v.INDEXER_RETRY_MAX_MS,
      jobAttempts: v.INDEXER_JOB_ATTEMPTS,
      lockMs: v.INDEXER_LOCK_MS,
      rejectedRetrySeconds: v.INDEXER_REJECTED_RETRY_SECONDS,
      sweepPeriodSeconds: v.INDEXER_SWEEP_PERIOD_SECONDS,
      sweepRangeSize: v.INDEXER_SWEEP_RANGE_SIZE,
      readyMaxLagSeconds: v.INDEXER_READY_MAX_LAG_SECONDS,
    },
    engineGuards: {
      pagesConcurrent: v.ENGINE_MAX_CONCURRENT,
      analyticsConcurrent: v.ENGINE_ANALYTICS_MAX_CONCURRENT,
      maxQueued: v.ENGINE_MAX_QUEUED,
      queueTimeoutMs: v.ENGINE_QUEUE_TIMEOUT_MS,
      breaker: {
        windowMs: v.BREAKER_WINDOW_MS,
        minCalls: v.BREAKER_MIN_CALLS,
        failureRate: (v.BREAKER_FAILURE_RATE as number) / 100,
        consecutiveFailures: v.BREAKER_CONSECUTIVE_FAILURES,
        slowCallMs: v.BREAKER_SLOW_CALL_MS,
        slowRate: (v.BREAKER_SLOW_RATE as number) / 100,
        slowInFlight: v.BREAKER_SLOW_IN_FLIGHT,
        openMs: v.BREAKER_OPEN_MS,
        probes: v.BREAKER_PROBES,
      },
    },
  };
}

/**
 * The search-token secret must be the same for every API process. In the embedded shape it is
 * generated once and kept in DATA_DIR; with an external database it must be configured.
 */
export function resolveSearchTokenSecret(config: Config): string {
  if (config.searchTokenSecret) return config.searchTokenSecret;
  if (config.databaseUrl) {
    throw new ConfigError(
      'Configuração inválida: SEARCH_TOKEN_SECRET é obrigatório quando DATABASE_URL está definido (mínimo 32 caracteres)',
    );
  }
  const file = join(config.dataDir, 'search-token.secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

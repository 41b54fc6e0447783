import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import {
  IN_CI,
  TEST_CHROMIUM,
  TEST_DATABASE_URL,
  TEST_OPENSEARCH_URL,
  TEST_REDIS_URL,
  withDatabase,
} from './test-env.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string | null;
    runId: string;
  }
}

/**
 * What the complete run needs, each with the tests that use it and how to provide it. In CI
 * (CI=true) every one must be there: a run that skipped the suites using one would pass without
 * having tested what ships. Elsewhere a missing one skips those suites, saying so in one line.
 */
const DEPENDENCIES = [
  {
    missing: () => !TEST_DATABASE_URL,
    what: 'DATABASE_URL não está definido',
    skipped:
      'os testes no PostgreSQL (falhas, prepared statements, migrações, comandos…) são ignorados e os restantes usam PGlite em memória',
    fix: 'DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres',
  },
  {
    missing: () => !TEST_REDIS_URL,
    what: 'REDIS_URL não está definido',
    skipped: 'os testes que precisam de Redis são ignorados',
    fix: 'REDIS_URL=redis://127.0.0.1:6379',
  },
  {
    missing: () => !TEST_OPENSEARCH_URL,
    what: 'OPENSEARCH_URL não está definido',
    skipped: 'os testes no OpenSearch são ignorados',
    fix: 'npm run opensearch:start; OPENSEARCH_URL=http://127.0.0.1:9200',
  },
  {
    missing: () => !existsSync(TEST_CHROMIUM),
    what: `${TEST_CHROMIUM} não existe`,
    skipped: 'os testes no browser são ignorados',
    fix: 'apt-get install -y chromium',
  },
];

/** Refuses a CI run that lacks a dependency (all of them named at once); elsewhere says what is skipped. */
function checkPresent(): void {
  const missing = DEPENDENCIES.filter((d) => d.missing());
  if (missing.length && IN_CI) {
    throw new Error(
      `[test] CI=true: nada pode ser ignorado em CI, e falta:\n${missing
        .map((d) => `  - ${d.what} (${d.fix})`)
        .join('\n')}`,
    );
  }
  for (const d of missing) console.log(`[test] ${d.what}: ${d.skipped} (${d.fix}).`);
}

/** A dependency that is configured but does not answer is always an error, in CI or not. */
async function checkAnswering(): Promise<void> {
  if (TEST_OPENSEARCH_URL) {
    const answer = await fetch(`${TEST_OPENSEARCH_URL}/_cluster/health`).catch(
      (error: unknown) => error as Error,
    );
    if (answer instanceof Error || !answer.ok) {
      throw new Error(
        `[test] OPENSEARCH_URL=${TEST_OPENSEARCH_URL} não responde (${answer instanceof Error ? answer.message : `HTTP ${answer.status}`}): inicie-o com npm run opensearch:start.`,
      );
    }
  }
  if (TEST_REDIS_URL) {
    const redis = new Redis(TEST_REDIS_URL, {
      lazyConnect: true,
      connectTimeout: 3_000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      throw new Error(
        `[test] REDIS_URL=${TEST_REDIS_URL} não responde (${(error as Error).message}): inicie o Redis.`,
        { cause: error },
      );
    } finally {
      redis.disconnect();
    }
  }
}

/**
 * Once per run: a freshly migrated template database. Each test file copies it with
 * CREATE DATABASE ... TEMPLATE (a file copy, milliseconds) and drops its copy at the end.
 */
export default async function setup(project: TestProject) {
  const runId = `${process.pid}_${randomBytes(3).toString('hex')}`;
  project.provide('runId', runId);
  checkPresent();
  await checkAnswering();
  if (!TEST_DATABASE_URL) {
    project.provide('templateDatabase', null);
    return;
  }
  const template = `pss_tpl_${runId}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect().catch((error: Error) => {
    throw new Error(
      `[test] DATABASE_URL=${TEST_DATABASE_URL} não responde (${error.message}): inicie o PostgreSQL.`,
      { cause: error },
    );
  });
  await admin.query(`CREATE DATABASE ${template}`);
  const handle = await openDatabase({ url: withDatabase(TEST_DATABASE_URL, template), poolSize: 1 });
  await migrate(handle.db);
  await handle.close();
  project.provide('templateDatabase', template);

  return async () => {
    const leftovers = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`,
      [template, `pss_t_${runId}_%`],
    );
    for (const { datname } of leftovers.rows)
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.end();
  };
}

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { DEFAULT_DATABASE_KIND, TEST_DATABASE_URL, withDatabase, type DatabaseKind } from './test-env.js';

export interface TestDatabase {
  kind: DatabaseKind;
  handle: DatabaseHandle;
  /** postgres:// URL of this test's database; null on PGlite */
  url: string | null;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL! });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A freshly migrated database of its own: on PostgreSQL a copy of the run's template, on PGlite an
 * in-memory one. `kind` asks for one (PGlite also when DATABASE_URL is set); by default PostgreSQL
 * when DATABASE_URL is set, PGlite otherwise.
 */
export async function createTestDatabase(kind: DatabaseKind = DEFAULT_DATABASE_KIND): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const handle = await openDatabase({ url: null, dataDir: null });
    await migrate(handle.db);
    return { kind, handle, url: null, drop: () => handle.close() };
  }
  const template = inject('templateDatabase');
  if (!TEST_DATABASE_URL || !template) {
    throw new Error("[test] a PostgreSQL test database needs DATABASE_URL (and the run's template database)");
  }
  const name = `pss_t_${inject('runId')}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const url = withDatabase(TEST_DATABASE_URL, name);
  const handle = await openDatabase({ url, poolSize: 20 });
  return {
    kind,
    handle,
    url,
    async drop() {
      await handle.close();
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

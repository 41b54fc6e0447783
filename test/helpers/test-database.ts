import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { TEST_DATABASE_URL, withDatabase } from './test-env.js';

export interface TestDatabase {
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

/** A freshly migrated database of its own: a copy of the run's template, or an in-memory PGlite. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = inject('templateDatabase');
  if (!TEST_DATABASE_URL || !template) {
    const handle = await openDatabase({ url: null, dataDir: null });
    await migrate(handle.db);
    return { handle, url: null, drop: () => handle.close() };
  }
  const name = `pss_t_${inject('runId')}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const url = withDatabase(TEST_DATABASE_URL, name);
  const handle = await openDatabase({ url, poolSize: 20 });
  return {
    handle,
    url,
    async drop() {
      await handle.close();
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

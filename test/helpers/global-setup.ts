import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL, withDatabase } from './test-env.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string | null;
    runId: string;
  }
}

/**
 * Once per run: a freshly migrated template database. Each test file copies it with
 * CREATE DATABASE ... TEMPLATE (a file copy, milliseconds) and drops its copy at the end.
 */
export default async function setup(project: TestProject) {
  const runId = `${process.pid}_${randomBytes(3).toString('hex')}`;
  project.provide('runId', runId);
  if (!TEST_REDIS_URL)
    console.log('[test] REDIS_URL não definido: os testes que precisam de Redis são ignorados.');
  if (!TEST_DATABASE_URL) {
    console.log('[test] DATABASE_URL não definido: cada ficheiro de teste usa PGlite em memória.');
    project.provide('templateDatabase', null);
    return;
  }
  const template = `pss_tpl_${runId}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
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

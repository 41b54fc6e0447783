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
 * The live cluster the OpenSearch cases run on. In CI (CI=true) it must be there: a run that
 * skipped them would pass without having tested the production engine. Elsewhere a missing
 * OPENSEARCH_URL skips them with this reason; a URL that does not answer is always an error.
 */
async function checkOpenSearch(): Promise<void> {
  const url = process.env.OPENSEARCH_URL;
  if (!url) {
    if (process.env.CI === 'true' || process.env.CI === '1') {
      throw new Error(
        '[test] CI=true mas OPENSEARCH_URL não está definido: os testes no OpenSearch não podem ser ignorados em CI (npm run opensearch:start).',
      );
    }
    console.log(
      '[test] OPENSEARCH_URL não definido: os testes no OpenSearch são ignorados (npm run opensearch:start; OPENSEARCH_URL=http://127.0.0.1:9200 npm test).',
    );
    return;
  }
  const answer = await fetch(`${url}/_cluster/health`).catch((error: unknown) => error as Error);
  if (answer instanceof Error || !answer.ok) {
    throw new Error(
      `[test] OPENSEARCH_URL=${url} não responde (${answer instanceof Error ? answer.message : `HTTP ${answer.status}`}): inicie-o com npm run opensearch:start.`,
    );
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
  await checkOpenSearch();
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

/** Where the tests find the machine's services. Unset DATABASE_URL = PGlite; unset REDIS_URL = Redis tests skipped. */
export const TEST_DATABASE_URL = process.env.DATABASE_URL || null;
export const TEST_REDIS_URL = process.env.REDIS_URL || null;
export const TEST_OPENSEARCH_URL = process.env.OPENSEARCH_URL || null;
/** Debian's chromium, which the browser tests drive (CHROMIUM_PATH: one elsewhere). */
export const TEST_CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** CI=true: nothing may be skipped for want of a dependency (test/helpers/global-setup.ts). */
export const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

/**
 * The databases a test can run on: PostgreSQL (DATABASE_URL, the production shape: each test file
 * gets a copy of the run's migrated template) or PGlite, the embedded default `npm start` runs on
 * (in memory, migrated for the test).
 */
export type DatabaseKind = 'postgres' | 'pglite';

/** What a test runs on unless it asks: PostgreSQL when DATABASE_URL is set, PGlite otherwise. */
export const DEFAULT_DATABASE_KIND: DatabaseKind = TEST_DATABASE_URL ? 'postgres' : 'pglite';

/**
 * Every database here, for the suites that must hold on both (describe.each): PostgreSQL when
 * DATABASE_URL is set, and always the embedded PGlite.
 */
export const DATABASE_KINDS: DatabaseKind[] = TEST_DATABASE_URL ? ['postgres', 'pglite'] : ['pglite'];

/** Database URL with another database name. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

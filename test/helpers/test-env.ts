/** Where the tests find the machine's services. Unset DATABASE_URL = PGlite; unset REDIS_URL = Redis tests skipped. */
export const TEST_DATABASE_URL = process.env.DATABASE_URL || null;
export const TEST_REDIS_URL = process.env.REDIS_URL || null;

/** Database URL with another database name. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

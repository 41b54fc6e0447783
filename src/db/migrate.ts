import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Database } from './database.js';

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'sql');

// Any constant works; it only has to be the same for every process of this service.
const MIGRATION_LOCK_ID = 727_001;

export interface MigrationResult {
  applied: string[];
  skipped: string[];
}

interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

function readMigrations(dir: string): MigrationFile[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((name) => {
      const text = readFileSync(join(dir, name), 'utf8');
      return { name, sql: text, checksum: createHash('sha256').update(text).digest('hex') };
    });
}

/**
 * Applies the .sql files of `dir` in name order, each in its own transaction, recording each in
 * schema_migrations. A session-level advisory lock makes concurrent starts wait for each other
 * instead of applying the same file twice. A file changed after it was applied is an error.
 */
export async function migrate(db: Database, dir: string = MIGRATIONS_DIR): Promise<MigrationResult> {
  const files = readMigrations(dir);
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`.execute(conn);
    try {
      await sql`create table if not exists schema_migrations (
        name text primary key,
        checksum text not null,
        applied_at timestamptz not null default now()
      )`.execute(conn);
      const done = new Map(
        (await conn.selectFrom('schema_migrations').select(['name', 'checksum']).execute()).map((row) => [
          row.name,
          row.checksum,
        ]),
      );
      const result: MigrationResult = { applied: [], skipped: [] };
      for (const file of files) {
        const recorded = done.get(file.name);
        if (recorded) {
          if (recorded !== file.checksum) {
            throw new Error(
              `A migração ${file.name} foi alterada depois de aplicada; crie uma nova migração.`,
            );
          }
          result.skipped.push(file.name);
          continue;
        }
        await conn.transaction().execute(async (trx) => {
          await sql.raw(file.sql).execute(trx);
          await trx
            .insertInto('schema_migrations')
            .values({ name: file.name, checksum: file.checksum })
            .execute();
        });
        result.applied.push(file.name);
      }
      return result;
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.execute(conn);
    }
  });
}

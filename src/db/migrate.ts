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
  /** run statement by statement, outside a transaction (see OUTSIDE_A_TRANSACTION) */
  outsideTransaction: boolean;
  /** the statements of a file run outside a transaction (see statementsOf) */
  statements: string[];
}

/**
 * The first line of a migration that cannot run in a transaction: CREATE INDEX CONCURRENTLY builds
 * an index while searches go on, where a plain CREATE INDEX locks the table for the whole build.
 * Its statements run one by one, so they must be safe to run again from the first should the file
 * stop half-way (IF EXISTS / IF NOT EXISTS, drop-then-create); the file is recorded once all ran.
 */
const OUTSIDE_A_TRANSACTION = '-- migrate: outside a transaction';

function readMigrations(dir: string): MigrationFile[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((name) => {
      const text = readFileSync(join(dir, name), 'utf8');
      const outsideTransaction = text.startsWith(OUTSIDE_A_TRANSACTION);
      return {
        name,
        sql: text,
        checksum: createHash('sha256').update(text).digest('hex'),
        outsideTransaction,
        statements: outsideTransaction ? statementsOf(name, text) : [],
      };
    });
}

/**
 * The statements of a file run outside a transaction: split at a `;` ending a line, whole-line
 * comments dropped. The split does not read SQL, so such a file may hold nothing it could cut
 * wrongly: no quotes or dollar quotes (a `;` inside them), no `;` except at a line's end, no comment
 * after code on a line. A file that does is refused before anything of it runs.
 */
function statementsOf(name: string, text: string): string[] {
  const lines = text.split('\n').filter((line) => !line.trimStart().startsWith('--'));
  const unsafe = lines.findIndex((line) => /['$]|--|;(?!\s*$)/.test(line));
  if (unsafe >= 0) {
    throw new Error(
      `A migração ${name} corre fora de uma transação e tem uma linha que a divisão em instruções não sabe ler (aspas, $, -- depois de código ou ; a meio da linha): "${lines[unsafe]!.trim()}". Escreva cada instrução terminada por ; no fim da linha.`,
    );
  }
  return lines
    .join('\n')
    .split(/;\s*$/m)
    .map((chunk) => chunk.trim())
    .filter(Boolean);
}

/** How often a process waiting for another one's migrations asks for the lock again. */
const LOCK_POLL_MS = 100;

/**
 * The session-level advisory lock that makes concurrent starts take turns. Asked for again and again
 * rather than waited for in one statement: a statement waiting on the lock holds a snapshot, which
 * CREATE INDEX CONCURRENTLY in the lock holder's migration would in turn wait for (a deadlock).
 */
async function takeMigrationLock(conn: Database): Promise<void> {
  for (;;) {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_lock(${MIGRATION_LOCK_ID}) as locked`.execute(conn);
    if (rows[0]!.locked) return;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

/**
 * Applies the .sql files of `dir` in name order, each in its own transaction (or, when it says so,
 * outside one: see OUTSIDE_A_TRANSACTION), recording each in
 * schema_migrations. A session-level advisory lock makes concurrent starts wait for each other
 * instead of applying the same file twice. A file changed after it was applied is an error.
 */
export async function migrate(db: Database, dir: string = MIGRATIONS_DIR): Promise<MigrationResult> {
  const files = readMigrations(dir);
  return db.connection().execute(async (conn) => {
    await takeMigrationLock(conn);
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
        if (file.outsideTransaction) {
          for (const statement of file.statements) await sql.raw(statement).execute(conn);
          await conn
            .insertInto('schema_migrations')
            .values({ name: file.name, checksum: file.checksum })
            .execute();
        } else {
          await conn.transaction().execute(async (trx) => {
            await sql.raw(file.sql).execute(trx);
            await trx
              .insertInto('schema_migrations')
              .values({ name: file.name, checksum: file.checksum })
              .execute();
          });
        }
        result.applied.push(file.name);
      }
      return result;
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.execute(conn);
    }
  });
}

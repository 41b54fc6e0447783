import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { lockDataDirectory } from './data-directory-lock.js';
import { PGliteDialect } from './pglite-dialect.js';
import { DEFAULT_PREPARED_PER_CONNECTION, preparingClient } from './prepared-statements.js';
import type { DB } from './schema.js';

export type Database = Kysely<DB>;

// bigint (int8) ids and counts arrive as strings unless parsed; every id here fits in 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => value);

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  /** the pg pool, for COPY and LISTEN; null on PGlite */
  pool: pg.Pool | null;
  /** the PGlite instance; null on PostgreSQL */
  pglite: PGlite | null;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL, or null for PGlite */
  url: string | null;
  /** PGlite data directory; null keeps it in memory (tests) */
  dataDir?: string | null;
  poolSize?: number;
  /** fail fast when the server is not there */
  connectTimeoutMs?: number;
  /** named prepared statements each connection keeps (0 = none, e.g. behind a pooler that cannot) */
  preparedPerConnection?: number;
  /** how the connections show in pg_stat_activity (which process of the deployment they are) */
  applicationName?: string;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const preparedPerConnection = options.preparedPerConnection ?? DEFAULT_PREPARED_PER_CONNECTION;
    const pool = new pg.Pool({
      ...(preparedPerConnection > 0 && { Client: preparingClient(preparedPerConnection) }),
      connectionString: options.url,
      ...(options.applicationName && { application_name: options.applicationName }),
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
      // Every query here is short; JIT compilation of a broad one (a plan cost above jit_above_cost)
      // spends tens of milliseconds compiling what runs in a few.
      options: '-c jit=off',
    });
    // A connection whose server process ends (pg_terminate_backend, a backend crash, a restart)
    // emits 'error'. The pool listens on idle clients only; a client checked out for a query or a
    // transaction has no listener, and an unheard 'error' event ends the process. Its query fails
    // with the same error (the request gets 503) and the pool discards the client when it is
    // released, so the error needs no handling here: only a listener, on every client, always.
    pool.on('connect', (client) => client.on('error', () => {}));
    pool.on('error', () => {});
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', pool, pglite: null, close: () => db.destroy() };
  }
  let dataDir: string | undefined;
  let release = async () => {};
  if (options.dataDir) {
    dataDir = join(options.dataDir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
    release = await lockDataDirectory(dataDir);
  }
  const pglite = await PGlite.create(dataDir, {
    extensions: { unaccent, pg_trgm },
    // Same JS types as the pg driver: int8 and numeric as strings.
    parsers: {
      [pg.types.builtins.INT8]: (value: string) => value,
      [pg.types.builtins.NUMERIC]: (value: string) => value,
    },
  }).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  const close = async () => {
    try {
      await db.destroy();
    } finally {
      // a lock file removed by hand meanwhile is nothing to release; the close itself went through
      await release().catch(() => undefined);
    }
  };
  return { db, kind: 'pglite', pool: null, pglite, close };
}

/** Round trip to the database; throws when it is unreachable. */
export async function pingDatabase(db: Database): Promise<void> {
  await sql`select 1`.execute(db);
}

import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * Kysely dialect for PGlite. PGlite is one session, so a connection is handed out exclusively:
 * a transaction holds it from BEGIN to COMMIT and other queries wait, exactly as they would for a
 * pooled connection of size one. Without this, concurrent transactions would interleave statements.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly client: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.client);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: PGliteConnection;

  constructor(private readonly client: PGlite) {
    this.connection = new PGliteConnection(client);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.queue;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.connection.release = release;
    return this.connection;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PGliteConnection).release();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }
  async destroy(): Promise<void> {
    await this.client.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  release: () => void = () => {};
  constructor(private readonly client: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters the simple protocol is used, as pg does, so a migration file with many
    // statements runs in one call; its last statement's result is the result.
    const result =
      compiled.parameters.length === 0
        ? ((await this.client.exec(compiled.sql)).at(-1) ?? { rows: [], affectedRows: 0 })
        : await this.client.query<R>(compiled.sql, [...compiled.parameters]);
    const affected = result.affectedRows;
    return {
      rows: result.rows as R[],
      ...(affected !== undefined && !/^\s*select/i.test(compiled.sql)
        ? { numAffectedRows: BigInt(affected) }
        : {}),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite não suporta streaming de consultas');
  }
}

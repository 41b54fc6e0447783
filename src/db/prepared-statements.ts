import { sql } from 'kysely';
import pg from 'pg';

/**
 * Put in a statement (first in a `sql` template: `sql\`${prepared}select …\``; in a query builder:
 * `.modifyFront(prepared)`) to have PostgreSQL keep it as a named prepared statement on each
 * connection. A search statement joins half a dozen relations: the server spends a few
 * milliseconds planning it and well under one running a reference search, so planning once per
 * connection and statement text removes most of what such a search costs the database. Only
 * statements one generic plan serves well for every value are marked (lookups by a unique key, a
 * reference search narrowed by simple filters); their texts must be few (values are parameters).
 */
export const PREPARED_MARK = '/* prepared */';
export const prepared = sql.raw(`${PREPARED_MARK} `);

/** Statements one connection keeps at most; past that, a marked statement runs unnamed. */
export const DEFAULT_PREPARED_PER_CONNECTION = 200;

/**
 * The server no longer has the statement as this connection prepared it: a migration changed the
 * type of a column it returns (checked by `routine`, which unlike the message is never translated),
 * or the statement is gone (DEALLOCATE, DISCARD ALL, a pooler). Either is raised before the
 * statement runs, so preparing it again and running it once more is safe.
 */
const isLostStatement = (error: unknown): boolean => {
  const { code, routine } = error as { code?: string; routine?: string };
  return (code === '0A000' && routine === 'RevalidateCachedQuery') || code === '26000';
};

type Query = (this: pg.Client, ...args: unknown[]) => unknown;

/**
 * A pg client that runs marked statements as named prepared statements (pg prepares a name once
 * per connection and then only binds and executes it). The names a connection prepares are
 * bounded, so an unusual mix of filters can never grow the server's memory without end; past the
 * bound, and in pg's callback form, marked statements simply run unnamed. A statement that fails is
 * prepared again under a new name on its next run, so no error can stick to a connection.
 */
export function preparingClient(maxPerConnection: number): typeof pg.Client {
  class PreparingClient extends pg.Client {
    /** statement text -> the name it is prepared under on this connection */
    readonly names = new Map<string, string>();
    prepared = 0;

    /** A new name for text, or null when this connection holds as many as it may. */
    nameFor(text: string): string | null {
      if (this.prepared >= maxPerConnection) return null;
      const name = `pss_${this.prepared}`;
      this.prepared += 1;
      this.names.set(text, name);
      return name;
    }
  }
  const query = pg.Client.prototype.query as Query;
  PreparingClient.prototype.query = function (this: PreparingClient, ...args: unknown[]) {
    const [text, values, callback] = args;
    const marked = typeof text === 'string' && text.includes(PREPARED_MARK);
    if (!marked || !Array.isArray(values) || callback !== undefined) return query.apply(this, args);
    const run = (name: string | null) =>
      query.call(this, name === null ? text : { name, text }, values) as Promise<unknown>;
    return run(this.names.get(text) ?? this.nameFor(text)).catch((error: unknown) => {
      this.names.delete(text);
      if (!isLostStatement(error)) throw error;
      // Inside a transaction the first error has aborted it: report that error, not the retry's.
      return run(this.nameFor(text)).catch((retryError: unknown) => {
        throw (retryError as { code?: string }).code === '25P02' ? error : retryError;
      });
    });
  } as pg.Client['query'];
  return PreparingClient;
}

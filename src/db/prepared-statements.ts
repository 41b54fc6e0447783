import { sql } from 'kysely';
import pg from 'pg';

/**
 * Put in a statement (first in a `sql` template: `sql\`${prepared}select …\``; in a query builder:
 * `.modifyFront(prepared)`) to have PostgreSQL keep it as a named prepared statement on each
 * connection. The search statements join half a dozen relations; the
 * server spends a few milliseconds planning one of them and well under one running it, so the
 * planning, done once per connection and statement text, is most of what a search costs the
 * database. Only statements a generic plan serves well for every value are marked (lookups by a
 * unique key, a reference search); their text must be one of a few (values are parameters).
 */
export const PREPARED_MARK = '/* prepared */';
export const prepared = sql.raw(`${PREPARED_MARK} `);

/** Statements one connection keeps at most; past that, a marked statement runs unnamed. */
export const DEFAULT_PREPARED_PER_CONNECTION = 200;

/**
 * PostgreSQL refuses to run a kept plan whose result columns changed type (a migration altered a
 * column the statement returns). The statement is refused at bind, before it runs, so it is safe to
 * prepare again and run once more.
 */
const isStalePlan = (error: unknown): boolean =>
  (error as { code?: string }).code === '0A000' &&
  /cached plan must not change result type/.test((error as Error).message);

type Query = (this: pg.Client, ...args: unknown[]) => unknown;

/**
 * A pg client that runs marked statements as named prepared statements (pg prepares a name once
 * per connection and then only binds and executes it). The names a connection prepares are
 * bounded, so an unusual mix of filters can never grow the server's memory without end.
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
    const [text, values, ...callback] = args;
    if (typeof text !== 'string' || !text.includes(PREPARED_MARK) || !Array.isArray(values)) {
      return query.apply(this, args);
    }
    const name = this.names.get(text) ?? this.nameFor(text);
    if (name === null) return query.apply(this, args);
    if (callback.length > 0) return query.call(this, { name, text, values }, ...callback);
    return (query.call(this, { name, text, values }) as Promise<unknown>).catch((error: unknown) => {
      if (!isStalePlan(error)) throw error;
      this.names.delete(text);
      const renamed = this.nameFor(text);
      return query.call(this, renamed === null ? text : { name: renamed, text }, values);
    });
  } as pg.Client['query'];
  return PreparingClient;
}

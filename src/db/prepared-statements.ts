import { createHash } from 'node:crypto';
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

const statementName = (text: string): string => `pss_${createHash('sha1').update(text).digest('base64url')}`;

/**
 * A pg client that runs marked statements as named prepared statements (pg prepares a name once
 * per connection and then only binds and executes it). The set of names a connection holds is
 * bounded, so an unusual mix of filters can never grow the server's memory without end.
 */
export function preparingClient(maxPerConnection: number): typeof pg.Client {
  class PreparingClient extends pg.Client {
    readonly preparedNames = new Set<string>();
  }
  const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  PreparingClient.prototype.query = function (this: PreparingClient, ...args: unknown[]) {
    const [text, values, ...rest] = args;
    if (typeof text === 'string' && text.includes(PREPARED_MARK) && Array.isArray(values)) {
      const name = statementName(text);
      if (this.preparedNames.has(name) || this.preparedNames.size < maxPerConnection) {
        this.preparedNames.add(name);
        return query.call(this, { name, text, values }, ...rest);
      }
    }
    return query.apply(this, args);
  } as pg.Client['query'];
  return PreparingClient;
}

import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import type { Database } from '../src/db/database.js';
import type { Logger } from '../src/logger.js';
import { rebuildIndex, type RebuildResult } from './rebuild.js';

/**
 * Full rebuilds asked for by the database: a TRUNCATE of the stock (as `npm run data:generate --
 * --truncate` does) deletes rows without row triggers, so it records a request instead
 * (sql/0021_stock_versions_and_truncate.sql). `check()` runs the rebuild when one is pending and
 * clears that request, never a newer one made while the rebuild ran.
 */
export class RebuildRequests {
  private running = false;

  constructor(
    private readonly db: Database,
    private readonly client: Client,
    private readonly alias: string,
    private readonly logger: Logger,
  ) {}

  async check(): Promise<RebuildResult | null> {
    if (this.running) return null;
    this.running = true;
    try {
      const requested = await this.pending();
      if (requested === null) return null;
      this.logger.warn({ requestedAt: requested }, 'the stock was truncated: rebuilding the index');
      const built = await rebuildIndex(this.db, this.client, this.alias);
      await sql`update search_indexer_state set rebuild_requested_at = null
                where singleton and rebuild_requested_at <= ${requested}::timestamptz`.execute(this.db);
      this.logger.info({ index: built.index, documents: built.documents }, 'index rebuilt');
      return built;
    } finally {
      this.running = false;
    }
  }

  /** The request's time as Postgres wrote it (text keeps the microseconds a Date would drop). */
  private async pending(): Promise<string | null> {
    const result = await sql<{ at: string | null }>`
      select rebuild_requested_at::text as at from search_indexer_state where singleton`.execute(this.db);
    return result.rows[0]?.at ?? null;
  }
}

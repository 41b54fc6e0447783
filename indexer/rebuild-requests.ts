import type { Client } from '@opensearch-project/opensearch';
import { sql } from 'kysely';
import type { Database } from '../src/db/database.js';
import type { Logger } from '../src/logger.js';
import { aliasTargets } from './index-admin.js';
import { rebuildIndex, type RebuildOptions, type RebuildResult } from './rebuild.js';

/** After a failed rebuild the next attempt waits this long, doubling up to the maximum. */
export const REBUILD_RETRY_FIRST_MS = 5_000;
export const REBUILD_RETRY_MAX_MS = 10 * 60_000;

/**
 * Full rebuilds asked for by the database: a TRUNCATE of the stock (as `npm run data:generate --
 * --truncate` does) deletes rows without row triggers, so it records a request instead
 * (sql/0021_stock_versions_and_truncate.sql), as does an indexer that finds no index behind its
 * alias or one of an older mapping. `check()` runs the rebuild when one is pending and clears that
 * request, never a newer one made while the rebuild ran. A rebuild that fails (its half-built index
 * removed) is tried again after a delay that doubles with each failure, never in a tight loop.
 */
export class RebuildRequests {
  private running = false;
  private failures = 0;
  private notBefore = 0;

  constructor(
    private readonly db: Database,
    private readonly client: Client,
    private readonly alias: string,
    private readonly logger: Logger,
    private readonly options: {
      /** run after each rebuild's swap (the indexer verifies the new index) */
      afterRebuild?: (built: RebuildResult) => Promise<void>;
      rejectedRetrySeconds?: number;
      /** primary shards of the indices it builds (OPENSEARCH_SHARDS) */
      shards?: number | null;
      /** the least time between two log lines of a rebuild's load (the indexer's --log-every) */
      logEveryMs?: number;
      now?: () => number;
    } = {},
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Asks for a rebuild (the indexer's own start, when the index is missing or outdated). */
  async request(): Promise<void> {
    await sql`update search_indexer_state set rebuild_requested_at = now() where singleton`.execute(this.db);
  }

  async check(): Promise<RebuildResult | null> {
    if (this.running || this.now() < this.notBefore) return null;
    this.running = true;
    try {
      const requested = await this.pending();
      if (requested === null) return null;
      // A first build is the normal first step of a new deployment; a rebuild of a live index is news.
      const first = (await aliasTargets(this.client, this.alias)).length === 0;
      if (first) this.logger.info({ alias: this.alias }, 'building the index for the first time');
      else this.logger.warn({ requestedAt: requested }, 'a rebuild of the index was asked for: rebuilding');
      let built: RebuildResult;
      try {
        built = await rebuildIndex(this.db, this.client, this.alias, {
          rejectedRetrySeconds: this.options.rejectedRetrySeconds,
          shards: this.options.shards ?? null,
          ...this.loadReport(),
          onWait: (seconds, transactions) =>
            this.logger.warn(
              { seconds, transactions },
              'rebuild waiting for stock transactions open at its start',
            ),
        });
      } catch (error) {
        const delay = Math.min(REBUILD_RETRY_FIRST_MS * 2 ** this.failures, REBUILD_RETRY_MAX_MS);
        this.failures += 1;
        this.notBefore = this.now() + delay;
        this.logger.error(
          { err: error, failures: this.failures, retryInMs: delay },
          'rebuild failed; its index was removed, retrying later',
        );
        return null;
      }
      this.failures = 0;
      await sql`update search_indexer_state set rebuild_requested_at = null
                where singleton and rebuild_requested_at <= ${requested}::timestamptz`.execute(this.db);
      this.logger.info(
        { index: built.index, documents: built.documents },
        first ? 'index built' : 'index rebuilt',
      );
      await this.options
        .afterRebuild?.(built)
        .catch((error: unknown) =>
          this.logger.error({ err: error }, 'the new index could not be verified; the sweep will'),
        );
      return built;
    } finally {
      this.running = false;
    }
  }

  /**
   * What the log says while a rebuild runs, minutes at millions of items: how many documents are
   * loaded, every `logEveryMs` at most, then that the load is over and what the rebuild still does.
   */
  private loadReport(): Pick<RebuildOptions, 'progress' | 'onStage'> {
    const started = this.now();
    let lastLine = started;
    return {
      progress: (documents) => {
        const now = this.now();
        if (now - lastLine < (this.options.logEveryMs ?? 15_000)) return;
        lastLine = now;
        const docsPerSecond = Math.round(documents / Math.max(0.001, (now - started) / 1000));
        this.logger.info({ documents, docsPerSecond }, 'rebuild loading the new index');
      },
      onStage: async (stage, index) => {
        if (stage !== 'loaded') return;
        this.logger.info(
          { index, seconds: Math.round((this.now() - started) / 1000) },
          'rebuild loaded the new index: catching up with the changes made meanwhile, merging its segments, waiting for its copies',
        );
      },
    };
  }

  /** The request's time as Postgres wrote it (text keeps the microseconds a Date would drop). */
  private async pending(): Promise<string | null> {
    const result = await sql<{ at: string | null }>`
      select rebuild_requested_at::text as at from search_indexer_state where singleton`.execute(this.db);
    return result.rows[0]?.at ?? null;
  }
}

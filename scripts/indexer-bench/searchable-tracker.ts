import type { Client } from '@opensearch-project/opensearch';

/** A committed change, and when it became searchable (null: not yet). */
export interface TrackedChange {
  id: number;
  version: number;
  committedAt: number;
  searchableAt: number | null;
}

/**
 * Follows committed stock changes until a search of the index shows each at its version (a search,
 * not a realtime get: the document must be *searchable*), polling every id still pending in one
 * request at a time.
 */
export class SearchableTracker {
  readonly changes: TrackedChange[] = [];
  /** per item, its changes not yet searchable */
  private readonly pending = new Map<number, TrackedChange[]>();
  private polling = false;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly client: Client,
    private readonly index: string,
  ) {}

  committed(id: number, version: number, at = Date.now()): void {
    const change = { id, version, committedAt: at, searchableAt: null };
    this.changes.push(change);
    this.pending.set(id, [...(this.pending.get(id) ?? []), change]);
  }

  get pendingCount(): number {
    let n = 0;
    for (const list of this.pending.values()) n += list.length;
    return n;
  }

  /** Changes committed at or before `at` not yet searchable. */
  pendingSince(at: number): number {
    let n = 0;
    for (const list of this.pending.values()) for (const c of list) if (c.committedAt <= at) n++;
    return n;
  }

  start(pollMs = 100): void {
    this.polling = true;
    this.loop = (async () => {
      while (this.polling) {
        await this.poll().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    })();
  }

  async stop(): Promise<void> {
    this.polling = false;
    await this.loop;
  }

  private async poll(): Promise<void> {
    if (this.pending.size === 0) return;
    const ids = [...this.pending.keys()].slice(0, 5_000);
    const answer = await this.client.search({
      index: this.index,
      body: { query: { ids: { values: ids.map(String) } }, size: ids.length, version: true, _source: false },
    });
    const now = Date.now();
    for (const hit of answer.body.hits.hits) {
      const id = Number(hit._id);
      const list = this.pending.get(id) ?? [];
      // a version in the index makes every earlier change of the item searchable with it
      const left = list.filter((c) => {
        if ((hit._version ?? 0) < c.version) return true;
        c.searchableAt = now;
        return false;
      });
      if (left.length) this.pending.set(id, left);
      else this.pending.delete(id);
    }
  }
}

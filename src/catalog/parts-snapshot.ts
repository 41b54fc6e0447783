import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { fold } from '../search/references.js';
import type { ListRequest, Page } from './catalog-queries.js';
import { LANGUAGES, type Lang, type Labels } from './data/languages.js';

export interface PartsRequest extends ListRequest {
  group?: string;
  type?: string;
}

export interface PartEntry {
  id: number;
  name: string;
  type: string;
  group: string;
  location: string | null;
  side: string | null;
}

interface SnapshotPart {
  id: number;
  names: Labels;
  /** the names as f_fold spells them (the catalog_parts name_fold_* columns) */
  folded: Labels;
  type: string;
  group: string;
  location: string | null;
  side: string | null;
}

/**
 * How long a loaded parts catalog is used before it is read again; clients are told to keep the
 * answers an hour, and an import (another process) shows within this minute.
 */
const REFRESH_MS = 60_000;

/**
 * The parts catalog (1,656 rows of reference data) held in the process: type-ahead filters and
 * pages it in memory instead of scanning the table on every keystroke. It is read again from
 * Postgres once a minute, in the background: until the new copy is in, and if reading it fails,
 * the previous one keeps answering.
 */
export class PartsSnapshot {
  private parts: SnapshotPart[] | null = null;
  private loadedAt = 0;
  private loading: Promise<SnapshotPart[]> | null = null;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
    private readonly refreshMs = REFRESH_MS,
  ) {}

  async list(r: PartsRequest): Promise<Page<PartEntry>> {
    const parts = await this.current();
    const q = r.q ? fold(r.q) : null;
    const matching = parts.filter(
      (p) =>
        (r.group === undefined || p.group === r.group) &&
        (r.type === undefined || p.type === r.type) &&
        (q === null || p.folded[r.lang].includes(q)),
    );
    const start = (r.page - 1) * r.perPage;
    return {
      total: matching.length,
      results: matching.slice(start, start + r.perPage).map((p) => ({
        id: p.id,
        name: p.names[r.lang],
        type: p.type,
        group: p.group,
        location: p.location,
        side: p.side,
      })),
    };
  }

  private current(): Promise<SnapshotPart[]> {
    if (this.parts === null) return this.load();
    if (this.now() - this.loadedAt >= this.refreshMs) this.load().catch(() => undefined);
    return Promise.resolve(this.parts);
  }

  /** One read at a time, however many requests ask for it. */
  private load(): Promise<SnapshotPart[]> {
    this.loading ??= this.read()
      .then((parts) => {
        this.parts = parts;
        this.loadedAt = this.now();
        return parts;
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  private async read(): Promise<SnapshotPart[]> {
    const folded = LANGUAGES.map((lang) => sql`${sql.ref(`name_fold_${lang}`)}`);
    const result = await sql<{
      id: number;
      names: Labels;
      type_code: string;
      group_code: string;
      location_code: string | null;
      side_code: string | null;
      folded: string[];
    }>`select id, names, type_code, group_code, location_code, side_code,
              array[${sql.join(folded)}] as folded
       from catalog_parts order by id`.execute(this.db);
    return result.rows.map((row) => ({
      id: row.id,
      names: row.names,
      folded: Object.fromEntries(LANGUAGES.map((lang, i) => [lang, row.folded[i]!])) as Record<Lang, string>,
      type: row.type_code,
      group: row.group_code,
      location: row.location_code,
      side: row.side_code,
    }));
  }
}

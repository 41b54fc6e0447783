import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { listingLanguage, type ListingLanguage } from '../search/listing-language.js';

/** What a pass over the items without a language did. */
export interface LanguagesBackfill {
  /** items without a language when read */
  read: number;
  /** of those, items whose language is now written, by language */
  told: Partial<Record<ListingLanguage, number>>;
  /** items whose language cannot be told (a short title, codes, another language): left null */
  untold: number;
  /** items written or held by another transaction meanwhile: left for that write, or a later pass */
  skipped: number;
}

export interface LanguagesBackfillOptions {
  /** items per transaction */
  batchSize?: number;
  /** told after each batch: the items read so far */
  progress?: (read: number) => void;
}

interface UntoldItem {
  id: string;
  version: string;
  title: string;
  description: string | null;
}

/**
 * Tells the language of every stock item written before items carried one (sql/0045), so that the
 * index analyses each in its own language instead of in all six. Items are read in id order after
 * a cursor, a batch per short transaction; each told item gets a new version, so it is owed to the
 * index and written again through the ordinary path (outbox, indexer), with its `updated_at` kept:
 * the seller changed nothing (the setting repairs use, sql/0031). A row written since it was read
 * (its version moved) or locked by another writer right now is skipped, never waited for: the
 * writer tells the language itself when it changes the text, and a later pass takes the rest.
 * Nothing is lost by stopping it half-way; running it again reads only the items still without one.
 */
export async function tellMissingLanguages(
  db: Database,
  options: LanguagesBackfillOptions = {},
): Promise<LanguagesBackfill> {
  const { batchSize = 2_000, progress = () => undefined } = options;
  const outcome: LanguagesBackfill = { read: 0, told: {}, untold: 0, skipped: 0 };
  let after = '0';
  for (;;) {
    const items = await sql<UntoldItem>`
      select id, version, title, description from stock_items
       where text_language is null and id > ${after}::bigint
       order by id limit ${batchSize}`.execute(db);
    if (items.rows.length === 0) break;
    after = items.rows[items.rows.length - 1]!.id;
    outcome.read += items.rows.length;
    const told = items.rows.flatMap((item) => {
      const language = listingLanguage(item.title, item.description ?? '');
      return language ? [{ ...item, language }] : [];
    });
    outcome.untold += items.rows.length - told.length;
    const written = told.length ? await writeLanguages(db, told) : [];
    for (const language of written) outcome.told[language] = (outcome.told[language] ?? 0) + 1;
    outcome.skipped += told.length - written.length;
    progress(outcome.read);
  }
  return outcome;
}

/** Writes each item's language where its row is still as read and free; returns the languages written. */
async function writeLanguages(
  db: Database,
  told: (UntoldItem & { language: ListingLanguage })[],
): Promise<ListingLanguage[]> {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('search_index.repairing', 'on', true)`.execute(trx);
    const written = await sql<{ text_language: ListingLanguage }>`
      with told as (
        select * from unnest(${told.map((t) => t.id)}::bigint[], ${told.map((t) => t.version)}::bigint[],
                             ${told.map((t) => t.language)}::text[]) as t(id, version, language)
      ), free as (
        select i.id from stock_items i join told t on t.id = i.id and t.version = i.version
         where i.text_language is null
         order by i.id
         for update of i skip locked
      )
      update stock_items i set text_language = t.language
        from told t join free f on f.id = t.id
       where i.id = t.id
      returning i.text_language`.execute(trx);
    return written.rows.map((r) => r.text_language);
  });
}

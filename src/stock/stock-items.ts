import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { invalid, ServiceError } from '../errors.js';
import { listingLanguage } from '../search/listing-language.js';
import type { Seller } from '../sellers/sellers.js';
import { readStockLine, type LineProblem, type RawLine, type StockLine } from './stock-line.js';

/** An item of a seller's stock, as the seller reads it back. */
export interface StockItem {
  id: string;
  sku: string;
  reference: string;
  title: string;
  description: string;
  condition: string;
  price: string;
  currency: string;
  quantity: number;
  is_oem: boolean;
  is_aftermarket: boolean;
  vehicle_make: string | null;
  vehicle_model: string | null;
  vehicle_variant: string | null;
  part_id: number | null;
  location_country_code: string;
  references: string[];
  version: string;
  updated_at: Date;
}

/** What a single-item write did: nothing changed is not written (no version, nothing to reindex). */
export type ItemOutcome = 'created' | 'updated' | 'unchanged';

export const itemNotFound = (sku: string) =>
  new ServiceError('STOCK_ITEM_NOT_FOUND', `O vendedor não tem nenhum artigo com o SKU ${sku}.`);

/** A line's problems as a 400 naming each field, as the body's own validation does. */
const lineRefused = (problems: LineProblem[]) =>
  invalid(problems.map((p) => p.message).join(' '), 'VALIDATION_ERROR', {
    campos: problems.map((p) => ({
      campo: `corpo.${p.field ?? 'linha'}`,
      motivo: 'invalid',
      mensagem: p.message,
    })),
  });

/** The row a line writes: the same for a feed's line and a single-item call. */
const rowOf = (line: StockLine) => ({
  reference: line.reference,
  title: line.title,
  description: line.description,
  condition: line.condition,
  price: line.price,
  currency: line.currency,
  quantity: line.quantity,
  is_oem: line.isOem,
  is_aftermarket: line.isAftermarket,
  vehicle_make: line.vehicleMake,
  vehicle_model: line.vehicleModel,
  vehicle_variant: line.vehicleVariant,
  part_id: line.partId,
  location_country_code: line.country,
});

/**
 * The row a line writes, with its language, told from its text (not compared by `holds`: it
 * follows the text, and is told only for a row written).
 */
const writtenRowOf = (line: StockLine) => ({
  ...rowOf(line),
  text_language: listingLanguage(line.title, line.description),
});

const cents = (price: string | number) => Math.round(Number(price) * 100);

/** Whether the stored item already holds what the line says (then nothing is written). */
function holds(item: StockItem, line: StockLine): boolean {
  const row = rowOf(line);
  const same = (Object.keys(row) as (keyof typeof row)[]).every((column) => {
    const stored = item[column as keyof StockItem];
    const wanted = row[column];
    if (column === 'price') return cents(stored as string) === cents(wanted as string);
    if (typeof stored === 'string' && typeof wanted === 'string') return stored.trim() === wanted;
    return stored === wanted;
  });
  const refs = (list: string[]) => [...list].sort().join('\u001f');
  return same && refs(item.references) === refs(line.references);
}

const ITEM_COLUMNS = [
  'i.id',
  'i.sku',
  'i.reference',
  'i.title',
  'i.description',
  'i.condition',
  'i.price',
  'i.currency',
  'i.quantity',
  'i.is_oem',
  'i.is_aftermarket',
  'i.vehicle_make',
  'i.vehicle_model',
  'i.vehicle_variant',
  'i.part_id',
  'i.location_country_code',
  'i.version',
  'i.updated_at',
] as const;

const selectItems = (db: Database, sellerId: string) =>
  db
    .selectFrom('stock_items as i')
    .select(ITEM_COLUMNS)
    .select(
      sql<string[]>`coalesce((select array_agg(r.reference order by r.reference)
                                from stock_item_references r where r.item_id = i.id), '{}')`.as('references'),
    )
    .where('i.vendor_id', '=', sellerId);

/**
 * A seller's items one at a time, by SKU: what the seller's own systems call after a sale or an
 * edit. Each call commits on its own; of a call and a feed touching one SKU, the one that commits
 * last wins (docs/stock-feeds.md).
 */
export function createStockItems(db: Database) {
  const find = (trx: Database, sellerId: string, sku: string) =>
    selectItems(trx, sellerId).where('i.sku', '=', sku).executeTakeFirst();

  return {
    async get(seller: Seller, sku: string): Promise<StockItem> {
      const item = await find(db, seller.id, sku);
      if (!item) throw itemNotFound(sku);
      return item;
    },

    async list(
      seller: Seller,
      filter: { sku?: string | undefined; page: number; perPage: number },
    ): Promise<{ total: number; items: StockItem[] }> {
      const onlySku = filter.sku === undefined ? sql<boolean>`true` : sql<boolean>`i.sku = ${filter.sku}`;
      const [count, items] = await Promise.all([
        db
          .selectFrom('stock_items as i')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('i.vendor_id', '=', seller.id)
          .where(onlySku)
          .executeTakeFirstOrThrow(),
        selectItems(db, seller.id)
          .where(onlySku)
          .orderBy('i.sku')
          .limit(filter.perPage)
          .offset((filter.page - 1) * filter.perPage)
          .execute(),
      ]);
      return { total: Number(count.n), items };
    },

    /** Creates or replaces the item with this SKU (PUT): every field as given, defaults for the rest. */
    async put(seller: Seller, sku: string, raw: RawLine): Promise<{ outcome: ItemOutcome; item: StockItem }> {
      const read = readStockLine(
        { ...raw, sku },
        { defaultCountry: seller.country_code, decimalComma: false, mayRemove: false },
      );
      if ('problems' in read) throw lineRefused(read.problems);
      const line = read.line;
      // the SKU as read (trimmed), as a feed's line names it: ' A1' and 'A1' are one item
      sku = line.sku;
      const write = () =>
        db.transaction().execute(async (trx) => {
          // the row locked (or the SKU's slot taken) before it is compared, so two calls at once queue
          await sql`select pg_advisory_xact_lock(hashtextextended(${`${seller.id}/${sku}`}, 0))`.execute(trx);
          const stored = await find(trx, seller.id, sku);
          if (stored && holds(stored, line)) return { outcome: 'unchanged' as const, item: stored };
          let itemId: string;
          if (stored) {
            await trx
              .updateTable('stock_items')
              .set(writtenRowOf(line))
              .where('id', '=', stored.id)
              .execute();
            await trx.deleteFrom('stock_item_references').where('item_id', '=', stored.id).execute();
            itemId = stored.id;
          } else {
            const row = await trx
              .insertInto('stock_items')
              .values({ ...writtenRowOf(line), vendor_id: seller.id, sku })
              .returning('id')
              .executeTakeFirstOrThrow();
            itemId = row.id;
          }
          if (line.references.length) {
            await trx
              .insertInto('stock_item_references')
              .values(line.references.map((reference) => ({ item_id: itemId, reference })))
              .execute();
          }
          return {
            outcome: stored ? ('updated' as const) : ('created' as const),
            item: (await find(trx, seller.id, sku))!,
          };
        });
      try {
        return await write();
      } catch (error) {
        // a feed created the same SKU meanwhile (it does not take the SKU's lock): now an update
        if ((error as { code?: string }).code === '23505') return write();
        throw error;
      }
    },

    /** Changes the price and/or the quantity (PATCH), the commonest change after a sale. */
    async patch(
      seller: Seller,
      sku: string,
      changes: { price?: number | string; quantity?: number },
    ): Promise<{ outcome: ItemOutcome; item: StockItem }> {
      const problems: LineProblem[] = [];
      let price: string | undefined;
      if (changes.price !== undefined) {
        const written = String(changes.price);
        if (!/^\d+(\.\d{1,2})?$/.test(written) || Number(written) > 9_999_999_999.99) {
          problems.push({
            field: 'price',
            message: `O preço ${written} não é um número positivo com até duas casas decimais.`,
          });
        } else price = written;
      }
      if (problems.length) throw lineRefused(problems);
      const updated = await db
        .updateTable('stock_items')
        .set({
          ...(price !== undefined ? { price } : {}),
          ...(changes.quantity !== undefined ? { quantity: changes.quantity } : {}),
        })
        .where('vendor_id', '=', seller.id)
        .where('sku', '=', sku)
        .where(
          sql<boolean>`(price, quantity) is distinct from (${price ?? sql`price`}::numeric, ${changes.quantity ?? sql`quantity`}::int)`,
        )
        .returning('id')
        .executeTakeFirst();
      const item = await find(db, seller.id, sku);
      if (!item) throw itemNotFound(sku);
      return { outcome: updated ? 'updated' : 'unchanged', item };
    },

    /** Removes the item (DELETE); its document leaves the index with the change. */
    async remove(seller: Seller, sku: string): Promise<void> {
      const removed = await db
        .deleteFrom('stock_items')
        .where('vendor_id', '=', seller.id)
        .where('sku', '=', sku)
        .returning('id')
        .executeTakeFirst();
      if (!removed) throw itemNotFound(sku);
    },
  };
}

export type StockItems = ReturnType<typeof createStockItems>;

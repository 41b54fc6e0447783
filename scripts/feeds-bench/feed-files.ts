import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { demoCatalogParts } from '../../src/demo/demo-catalog.js';
import { DemoDataset } from '../../src/demo/generator.js';

/**
 * The columns every generated feed carries, as a seller's export names them (docs/stock-feeds.md);
 * no description, which the generator makes long enough to take 1 M lines past the default
 * FEED_MAX_MB (256 MB).
 */
const HEADER = [
  'sku',
  'referencia',
  'titulo',
  'condicao',
  'preco',
  'moeda',
  'quantidade',
  'is_oem',
  'is_aftermarket',
  'marca',
  'modelo',
  'variante',
  'parte_id',
  'referencias',
];

/** A price no generated item reaches: what a delta sets, so a count of the index shows it arrived. */
export const DELTA_PRICE_FLOOR = 50_000;

const field = (value: string | number | boolean | null): string => {
  const text = value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export const benchSku = (index: number) => `BF-${String(index).padStart(7, '0')}`;

/**
 * Writes a CSV feed of items `0 <= index < lines` of a generated seller's stock (the demo
 * generator's items: the same for the same seed). `priced` replaces an item's price (a delta).
 * Streamed to the file with backpressure: nothing held whole. Returns the file's size in bytes.
 */
export async function writeFeedCsv(
  path: string,
  lines: number,
  options: { seed: number; priced?: (index: number) => string },
): Promise<number> {
  const dataset = new DemoDataset({
    seed: options.seed,
    items: lines,
    vendors: 1,
    catalog: demoCatalogParts(),
  });
  function* rows(): Generator<string> {
    yield HEADER.join(',') + '\n';
    let batch = '';
    for (let index = 0; index < lines; index++) {
      const { item, references } = dataset.item(index);
      batch +=
        [
          benchSku(index),
          item.reference,
          item.title,
          item.condition,
          options.priced ? options.priced(index) : item.price,
          item.currency,
          item.quantity,
          item.is_oem,
          item.is_aftermarket,
          item.vehicle_make,
          item.vehicle_model,
          item.vehicle_variant,
          item.part_id,
          references.map((r) => r.reference).join('|'),
        ]
          .map(field)
          .join(',') + '\n';
      if (batch.length > 64 * 1024) {
        yield batch;
        batch = '';
      }
    }
    if (batch) yield batch;
  }
  await pipeline(Readable.from(rows()), createWriteStream(path));
  return (await stat(path)).size;
}

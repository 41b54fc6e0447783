import { Readable } from 'node:stream';
import type { FeedError } from './feed-store.js';

/**
 * The CSV the service writes for sellers to open in a spreadsheet: the feed template and a
 * feed's error report.
 */

/**
 * One cell: quoted when it must be, and neutralized when a spreadsheet would run it as a formula
 * (=, +, -, @, tab, carriage return first: CSV injection) by a leading apostrophe — at its start
 * and after every character a spreadsheet may split a cell on (a Portuguese one opens CSV split on
 * semicolons: `x;=1+2` would be a cell of its own).
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  text = text.replace(/([,;\t\r\n]\s*)([=+\-@])/g, "$1'$2");
  return /[",;\n\r\t]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

const row = (cells: (string | number | null)[]) => cells.map(csvCell).join(',') + '\r\n';

/** A feed's rejected lines as CSV (with a BOM, so spreadsheets read it as UTF-8), streamed. */
export function errorReport(errors: AsyncIterable<FeedError>): Readable {
  return Readable.from(
    (async function* () {
      yield '\uFEFF' + row(['linha', 'sku', 'campo', 'mensagem']);
      for await (const e of errors) yield row([e.line, e.sku, e.field, e.message]);
    })(),
  );
}

/** The template GET /stock/feeds/template.csv serves: every column, two example lines. */
export const FEED_TEMPLATE =
  [
    'sku;referencia;titulo;descricao;condicao;preco;moeda;quantidade;is_oem;is_aftermarket;marca;modelo;variante;parte_id;referencias;pais',
    'FIL-4711;1K0 129 620 D;Filtro de ar;Caixa original, sem uso;novo;12,50;EUR;3;sim;não;Volkswagen;Golf;;;A 123 456|WA9567;PT',
    'ALT-0042;06F 903 023 F;Alternador;Testado, 90 A;usado_bom;85,00;EUR;1;sim;não;Audi;A3;8P;;;',
  ].join('\r\n') + '\r\n';

import countries from 'i18n-iso-countries';
import { CONDITIONS, type Condition } from '../db/schema.js';
import { fold, normalizeReference } from '../search/references.js';

/**
 * One line of a seller's stock, as feeds, single-item calls and the operator's command read it:
 * the record with its fields named in Portuguese, English or Spanish, checked and turned into the
 * values a stock row takes, or refused with a message per field. One reader of a line for every
 * way stock comes in.
 */

/** A stock line's values, ready for a stock row. */
export interface StockLine {
  sku: string;
  /** a delta's line that removes the item */
  remove: boolean;
  reference: string;
  title: string;
  description: string;
  condition: Condition;
  price: string;
  currency: string;
  quantity: number;
  isOem: boolean;
  isAftermarket: boolean;
  vehicleMake: string | null;
  vehicleModel: string | null;
  vehicleVariant: string | null;
  partId: number | null;
  country: string;
  /** associated references */
  references: string[];
}

/** Why a line is refused: the field (null: the whole line) and the message, in Portuguese. */
export interface LineProblem {
  field: string | null;
  message: string;
}

/** The fields a line may have, each under the names a seller may give it (lower-case, no accents). */
export const FIELD_NAMES = {
  sku: ['sku', 'codigo', 'code', 'codigo_vendedor', 'seller_sku'],
  action: ['action', 'acao', 'accion', 'operacao', 'op'],
  reference: ['referencia', 'reference', 'ref', 'referencia_oem', 'oem'],
  title: ['titulo', 'title', 'nome', 'name', 'nombre'],
  description: ['descricao', 'description', 'descripcion'],
  condition: ['condicao', 'condition', 'estado', 'condicion'],
  price: ['preco', 'price', 'precio'],
  currency: ['moeda', 'currency', 'moneda'],
  quantity: ['quantidade', 'quantity', 'qty', 'stock', 'cantidad'],
  isOem: ['is_oem', 'oem_original', 'original'],
  isAftermarket: ['is_aftermarket', 'aftermarket'],
  vehicleMake: ['marca', 'make', 'marca_veiculo', 'vehicle_make'],
  vehicleModel: ['modelo', 'model', 'modelo_veiculo', 'vehicle_model'],
  vehicleVariant: ['variante', 'variant', 'version', 'versao'],
  partId: ['parte_id', 'part_id', 'peca_id', 'pieza_id'],
  references: ['referencias', 'references', 'referencias_associadas', 'equivalentes', 'cross_references'],
  country: ['pais', 'country', 'pais_codigo'],
} as const;

export type FieldName = keyof typeof FIELD_NAMES;

/** A column or key name as a seller wrote it, read: lower-case, accents folded, spaces as _. */
export const columnKey = (name: string): string =>
  fold(name.replace(/^\uFEFF/, ''))
    .replace(/[\s-]+/g, '_')
    .replace(/[^a-z0-9_]/g, '');

const FIELD_OF = new Map<string, FieldName>(
  (Object.entries(FIELD_NAMES) as [FieldName, readonly string[]][]).flatMap(([field, names]) =>
    names.map((name) => [name, field] as const),
  ),
);

/** Which field a column or key names; null for one the service does not know (a warning, not an error). */
export const fieldOf = (name: string): FieldName | null => FIELD_OF.get(columnKey(name)) ?? null;

/** The words sellers use for each condition, in the three languages, folded. */
const CONDITION_WORDS: Record<string, Condition> = Object.fromEntries(
  (
    [
      ['novo', ['novo', 'nova', 'new', 'nuevo', 'nueva', 'neuf', 'neu']],
      [
        'usado_bom',
        ['usado_bom', 'usado', 'used', 'good', 'usado_bueno', 'bom', 'bueno', 'used_good', 'segunda_mao'],
      ],
      [
        'usado_aceitavel',
        [
          'usado_aceitavel',
          'aceitavel',
          'acceptable',
          'used_acceptable',
          'fair',
          'aceptable',
          'usado_aceptable',
        ],
      ],
      [
        'recondicionado',
        [
          'recondicionado',
          'refurbished',
          'reconditioned',
          'remanufactured',
          'reacondicionado',
          'reconstruido',
        ],
      ],
      [
        'para_pecas',
        ['para_pecas', 'pecas', 'for_parts', 'parts', 'para_piezas', 'piezas', 'sucata', 'broken'],
      ],
    ] as [Condition, string[]][]
  ).flatMap(([condition, words]) => words.map((w) => [w, condition])),
);

const TRUE_WORDS = new Set(['1', 'true', 'sim', 's', 'yes', 'y', 'si', 'verdadeiro', 'x']);
const FALSE_WORDS = new Set(['0', 'false', 'nao', 'n', 'no', 'falso', '']);
const REMOVE_WORDS = new Set(['delete', 'remove', 'apagar', 'remover', 'eliminar', 'borrar', 'd']);
const UPSERT_WORDS = new Set(['', 'upsert', 'update', 'insert', 'atualizar', 'inserir', 'actualizar', 'u']);

/** The highest price a stock item can have (numeric(12, 2)). */
const MAX_PRICE = 9_999_999_999.99;
const MAX_TEXT = 2_000;

/** A record's raw values by field: text from CSV, any JSON value from JSON Lines. */
export type RawLine = Partial<Record<FieldName, unknown>>;

/** The longest SKU a seller may use. */
const MAX_SKU_LENGTH = 100;

/** A JSON object's values by field (a JSON Lines line, a PUT's body), and the keys it does not know. */
export function rawLineOf(record: Record<string, unknown>): { raw: RawLine; unknownKeys: string[] } {
  const raw: RawLine = {};
  const unknownKeys: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    const field = fieldOf(key);
    if (field) raw[field] = value;
    else unknownKeys.push(key);
  }
  return { raw, unknownKeys };
}

export interface ReadOptions {
  /** the seller's country: a line without one is there */
  defaultCountry: string;
  /** `;`-separated CSV: a price may be written with a decimal comma (12,50) */
  decimalComma: boolean;
  /** a delta's line may remove its item; a full feed's line may not */
  mayRemove: boolean;
}

/** A rejected line's text as its report can keep it: a NUL, which PostgreSQL's text cannot hold, shown as U+FFFD. */
export const storableText = (text: string): string => text.replaceAll('\u0000', '\uFFFD');

/**
 * The SKU a rejected line names, read as a valid line's is (a JSON number too), cut to the SKU's
 * limit: a full feed keeps the item of a rejected line by this SKU, and the report shows it.
 */
export function skuOfRejected(raw: RawLine): string | null {
  const sku = asText(raw.sku);
  return sku ? storableText(sku.slice(0, MAX_SKU_LENGTH)) : null;
}

const asText = (value: unknown): string | null => {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
};

/**
 * Reads one line: its values, or every problem it has (all of them, so a seller fixes a line once).
 */
export function readStockLine(
  raw: RawLine,
  options: ReadOptions,
): { line: StockLine } | { problems: LineProblem[] } {
  const problems: LineProblem[] = [];
  const problem = (field: string | null, message: string) => void problems.push({ field, message });
  const text = (field: FieldName, label: string, required: boolean, max = MAX_TEXT): string | null => {
    const value = raw[field];
    const read = asText(value);
    if (value !== undefined && value !== null && read === null) {
      problem(label, `O campo ${label} deve ser texto.`);
      return null;
    }
    if (!read) {
      if (required) problem(label, `O campo ${label} é obrigatório.`);
      return null;
    }
    if (read.length > max) problem(label, `O campo ${label} tem mais de ${max} caracteres.`);
    // PostgreSQL's text cannot hold it: one such line would fail the whole feed
    if (read.includes('\u0000')) problem(label, `O campo ${label} contém o carácter nulo (U+0000).`);
    return read;
  };

  const sku = text('sku', 'sku', true, MAX_SKU_LENGTH);
  const action = fold(asText(raw.action) ?? '');
  let remove = false;
  if (REMOVE_WORDS.has(action)) {
    if (options.mayRemove) remove = true;
    else
      problem(
        'action',
        'Um feed completo não remove linhas: os artigos que não vêm no ficheiro é que são removidos.',
      );
  } else if (!UPSERT_WORDS.has(action)) {
    problem('action', `O campo action não é conhecido: ${asText(raw.action)} (use upsert ou delete).`);
  }
  if (remove) {
    return problems.length ? { problems } : { line: { ...removedLine(), sku: sku! } };
  }

  const reference = text('reference', 'referencia', true, 100);
  if (reference && normalizeReference(reference) === '') {
    problem('referencia', 'A referência não contém letras nem algarismos.');
  }
  const title = text('title', 'titulo', true, 500);
  const description = text('description', 'descricao', false) ?? '';

  const conditionText = asText(raw.condition);
  const condition = conditionText ? CONDITION_WORDS[columnKey(conditionText)] : undefined;
  if (!conditionText) problem('condicao', 'O campo condicao é obrigatório.');
  else if (!condition) {
    problem(
      'condicao',
      `A condição ${conditionText} não é conhecida (use uma de: ${CONDITIONS.join(', ')}).`,
    );
  }

  const price = readPrice(raw.price, options.decimalComma, problem);

  const currency = (asText(raw.currency) || 'EUR').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) problem('moeda', `A moeda ${currency} não é um código ISO 4217 (EUR).`);

  const quantity = readInteger(raw.quantity, 'quantidade', 1, 0, 2_147_483_647, problem);
  const partId = readInteger(raw.partId, 'parte_id', null, 1, 2_147_483_647, problem);
  const isOem = readBoolean(raw.isOem, 'is_oem', problem);
  const isAftermarket = readBoolean(raw.isAftermarket, 'is_aftermarket', problem);

  const country = (asText(raw.country) || options.defaultCountry).toUpperCase();
  // two letters: isValid takes alpha-3 and numeric codes too, which the stock's char(2) cannot hold
  if (!/^[A-Z]{2}$/.test(country) || !countries.isValid(country))
    problem('pais', `O país ${country.slice(0, 20)} não é um código ISO 3166-1 alfa-2 válido (PT, ES…).`);

  const references = readReferences(raw.references, problem);
  const vehicleMake = text('vehicleMake', 'marca', false, 200);
  const vehicleModel = text('vehicleModel', 'modelo', false, 200);
  const vehicleVariant = text('vehicleVariant', 'variante', false, 200);

  if (problems.length) return { problems };
  return {
    line: {
      sku: sku!,
      remove: false,
      reference: reference!,
      title: title!,
      description,
      condition: condition!,
      price: price!,
      currency,
      quantity: quantity ?? 1,
      isOem,
      isAftermarket,
      vehicleMake,
      vehicleModel,
      vehicleVariant,
      partId,
      country,
      references,
    },
  };
}

function removedLine(): Omit<StockLine, 'sku'> {
  return {
    remove: true,
    reference: '',
    title: '',
    description: '',
    condition: 'novo',
    price: '0',
    currency: 'EUR',
    quantity: 0,
    isOem: false,
    isAftermarket: false,
    vehicleMake: null,
    vehicleModel: null,
    vehicleVariant: null,
    partId: null,
    country: '',
    references: [],
  };
}

/** A price as the database keeps it (text with at most two decimals), or a problem. */
function readPrice(
  value: unknown,
  decimalComma: boolean,
  problem: (f: string, m: string) => void,
): string | null {
  let written = asText(value);
  if (!written) {
    problem('preco', 'O campo preco é obrigatório.');
    return null;
  }
  written = written.replace(/\s|€/g, '');
  if (decimalComma) {
    // 1.250 is a thousand and a quarter where a comma marks decimals, 1.25 where a point does: in a
    // file separated by semicolons either is common, and reading the wrong one is a price off by a
    // thousand times, so the line is refused rather than guessed
    if (/^\d{1,3}(\.\d{3})+$/.test(written)) {
      problem(
        'preco',
        `O preço ${asText(value)} é ambíguo num ficheiro separado por ponto e vírgula: escreva ${written.replace(/\./g, '')} (ou ${written.replace(/\./g, '')},00) se são milhares, ou ${String(Number(written)).replace('.', ',')} se o ponto marca as casas decimais.`,
      );
      return null;
    }
    written = written.replace(/\.(?=\d{3}(\D|$))/g, '').replace(',', '.');
  }
  if (!/^\d+(\.\d{1,2})?$/.test(written)) {
    problem(
      'preco',
      /^-/.test(written)
        ? `O preço não pode ser negativo: ${asText(value)}.`
        : `O preço ${asText(value)} não é um número com até duas casas decimais.`,
    );
    return null;
  }
  if (Number(written) > MAX_PRICE) {
    problem('preco', `O preço ${asText(value)} passa do máximo (${MAX_PRICE}).`);
    return null;
  }
  return written;
}

function readInteger(
  value: unknown,
  label: string,
  absent: number | null,
  min: number,
  max: number,
  problem: (f: string, m: string) => void,
): number | null {
  const written = asText(value);
  if (!written) return absent;
  // digits (a spreadsheet's 3.0 or 3,0 too): Number() would also read 0x10, 1e3 or 1_000
  const n = /^\d+(?:[.,]0+)?$/.test(written) ? parseInt(written, 10) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    problem(label, `O campo ${label} deve ser um número inteiro entre ${min} e ${max}: ${written}.`);
    return absent;
  }
  return n;
}

function readBoolean(value: unknown, label: string, problem: (f: string, m: string) => void): boolean {
  if (typeof value === 'boolean') return value;
  const written = fold(asText(value) ?? '');
  if (TRUE_WORDS.has(written)) return true;
  if (FALSE_WORDS.has(written)) return false;
  problem(
    label,
    `O campo ${label} deve ser verdadeiro ou falso (sim/não, true/false, 1/0): ${asText(value)}.`,
  );
  return false;
}

/** C0 controls and DEL. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** Associated references: a JSON array, or text separated by |. */
function readReferences(value: unknown, problem: (f: string, m: string) => void): string[] {
  if (value === undefined || value === null || value === '') return [];
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split('|') : null;
  if (!list || list.some((r) => typeof r !== 'string')) {
    problem('referencias', 'O campo referencias deve ser texto separado por | ou uma lista de textos.');
    return [];
  }
  // one per normalized form, as the table keys them (AB-1 and ab 1 are one reference): a second
  // would break the item's write, or be dropped and seen as a change at every feed
  const byForm = new Map<string, string>();
  for (const reference of (list as string[]).map((r) => r.trim())) {
    const form = normalizeReference(reference);
    if (form !== '' && !byForm.has(form)) byForm.set(form, reference);
  }
  const references = [...byForm.values()];
  if (references.length > 50) problem('referencias', 'Mais de 50 referências associadas numa linha.');
  if (references.some((r) => r.length > 100))
    problem('referencias', 'Uma referência associada tem mais de 100 caracteres.');
  // a reference is letters, digits and separators; the feed's apply joins them with one (feed-apply.ts)
  if (references.some((r) => CONTROL_CHARACTER.test(r)))
    problem('referencias', 'Uma referência associada contém caracteres de controlo.');
  return references;
}

import type { SearchEngine } from '../search/engine.js';
import { readDataUriImage, type ImageFacts } from './data-uri-image.js';
import { identifyPartInputSchema, identifyPartOutputSchema } from './identify-part.schemas.js';
import { prepareForReading } from './image-preparation.js';
import {
  descriptionCandidates,
  imageCandidates,
  lookAlikes,
  mergeCandidates,
  type Candidate,
  type Source,
} from './label-candidates.js';
import { stockSummary, type StockSummary } from './stock-summary.js';
import type { Reading, TextReader } from './text-reader.js';
import type { Tool } from './tool.js';

interface Input {
  image: string;
  description: string;
}

/** A reference in the answer (exported for the tests). */
export interface FoundReference {
  referencia: string;
  normalizada: string;
  artigos_em_stock: number;
  preco_minimo: number | null;
  peca: { id: number; nome: string | null } | null;
  origem: Source[];
  confianca: number;
  corrigida: boolean;
}

type ReadingState = 'lida' | 'sem_texto' | 'tempo_esgotado' | 'falhou';

export interface IdentifyPartOutput {
  imagem: ImageView;
  referencias: FoundReference[];
  pesquisa_sugerida: Record<string, unknown> | null;
  nota: string;
}

export interface ImageView {
  tipo: string;
  largura: number;
  altura: number;
  bytes: number;
  leitura: ReadingState;
  texto: string[];
}

/** The suggested text search's length, at most. */
const SUGGESTED_TEXT_MAX = 200;

/**
 * A text search /data/search accepts, from the description: its words (what the search reads
 * anyway), as many as fit in SUGGESTED_TEXT_MAX characters, whole (a cut emoji would leave half a
 * surrogate pair); null when it has no word at all.
 */
function suggestedText(description: string): string | null {
  let text = '';
  for (const word of description.match(/[\p{L}\p{N}]+/gu) ?? []) {
    const next = text ? `${text} ${word}` : word;
    if (next.length <= SUGGESTED_TEXT_MAX) text = next;
  }
  return text || null;
}

/** References looked up in stock per request, at most (each is one engine query). */
const FROM_DESCRIPTION = 16;
const FROM_IMAGE = 12;
/** Readings of the image not in stock whose look-alikes (O/0, …) are looked up; look-ups, at most. */
const CORRECTED_READINGS = 3;
const LOOK_ALIKES = 30;
/** References in the answer, at most. */
const MAX_ANSWERED = 10;
const MAX_TEXT_LINES = 20;
const MAX_LINE_LENGTH = 200;

export interface IdentifyPartDeps {
  engine: SearchEngine;
  /** Portuguese names of catalog parts by id (stock-summary.ts' partNames over the database) */
  partNames: (ids: number[]) => Promise<Map<number, string>>;
  reader: TextReader;
  /** TOOL_OCR_TIMEOUT_MS */
  timeoutMs: number;
}

interface Looked extends Candidate {
  stock: StockSummary;
}

/**
 * Stocked references first; then the surer reading; then the more items. A reference contained in
 * a longer one is dropped when the longer is stocked or both are not ("615 301" inside
 * "1K0 615 301 AA").
 */
export function rankCandidates(looked: Looked[]): Looked[] {
  const kept = looked.filter(
    (c) =>
      !looked.some(
        (d) =>
          d !== c &&
          d.normalized.length > c.normalized.length &&
          d.normalized.includes(c.normalized) &&
          (d.stock.items > 0 || c.stock.items === 0),
      ),
  );
  return kept.sort(
    (a, b) =>
      Number(b.stock.items > 0) - Number(a.stock.items > 0) ||
      b.confidence - a.confidence ||
      b.sources.length - a.sources.length ||
      b.stock.items - a.stock.items ||
      a.normalized.localeCompare(b.normalized),
  );
}

/** The first of each list, then the second of each, …: each reading gets its share of look-ups. */
function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++)
    for (const l of lists) if (i < l.length) out.push(l[i]!);
  return out;
}

const READING_STATE: Record<Reading['status'], (r: Reading) => ReadingState> = {
  read: (r) => (r.status === 'read' && r.lines.length ? 'lida' : 'sem_texto'),
  timeout: () => 'tempo_esgotado',
  failed: () => 'falhou',
};

function imageView(facts: ImageFacts, reading: Reading): ImageView {
  return {
    tipo: `image/${facts.type}`,
    largura: facts.width,
    altura: facts.height,
    bytes: facts.bytes,
    leitura: READING_STATE[reading.status](reading),
    texto:
      reading.status === 'read'
        ? reading.lines.slice(0, MAX_TEXT_LINES).map((l) => l.text.slice(0, MAX_LINE_LENGTH))
        : [],
  };
}

function where(sources: Source[]): string {
  if (sources.length > 1) return 'na imagem e na descrição';
  return sources[0] === 'imagem' ? 'na imagem' : 'na descrição';
}

function readingNote(state: ReadingState, timeoutMs: number): string {
  if (state === 'tempo_esgotado') {
    return ` A imagem não foi lida a tempo (limite de ${timeoutMs} ms): a resposta usa só a descrição.`;
  }
  if (state === 'falhou') return ' Não foi possível ler a imagem: a resposta usa só a descrição.';
  if (state === 'sem_texto') return ' Não foi encontrado texto legível na imagem.';
  return '';
}

/**
 * "identificar-peca": from a photo and a free-text description, the part references printed in
 * the photo (read by text recognition: part, box or label) and those the description names, each
 * looked up in stock (own, associated or cross-reference, as the search matches them) with its
 * items, lowest price and catalog part, stocked ones first; and the body to send to
 * POST /data/search. Free of credits: it says whether and from what price a reference is stocked,
 * not the offers (those are the paid search).
 */
export function identifyPartTool(deps: IdentifyPartDeps): Tool<Input, IdentifyPartOutput> {
  const { engine, partNames, reader, timeoutMs } = deps;
  const lookUp = async (candidates: Candidate[]): Promise<Looked[]> =>
    Promise.all(candidates.map(async (c) => ({ ...c, stock: await stockSummary(engine, c.normalized) })));

  return {
    slug: 'identificar-peca',
    summary:
      'Lê as referências impressas na foto (peça, caixa ou etiqueta) e as escritas na descrição, e indica para cada uma quantos artigos em stock a têm, o preço mínimo e a peça do catálogo. Não gasta créditos.',
    inputSchema: identifyPartInputSchema,
    outputSchema: identifyPartOutputSchema,
    async run(input) {
      const image = readDataUriImage(input.image);
      const prepared = await prepareForReading(image.data);
      const reading = await reader.read(prepared.png, timeoutMs);
      const fromImage =
        reading.status === 'read'
          ? imageCandidates(reading.lines)
              .sort((a, b) => b.confidence - a.confidence)
              .slice(0, FROM_IMAGE)
          : [];
      const looked = await lookUp(
        mergeCandidates(fromImage, descriptionCandidates(input.description, FROM_DESCRIPTION)),
      );
      // readings not in stock: one misread character away may be (O for 0, …)
      const known = new Set(looked.map((c) => c.normalized));
      const unstocked = looked.filter((c) => c.sources.includes('imagem') && c.stock.items === 0);
      const alikes = interleave(unstocked.slice(0, CORRECTED_READINGS).map((c) => lookAlikes(c, LOOK_ALIKES)))
        .filter((c) => !known.has(c.normalized) && (known.add(c.normalized), true))
        .slice(0, LOOK_ALIKES);
      const corrected = (await lookUp(alikes)).filter((c) => c.stock.items > 0);
      // not in stock: kept when read in the image (what was read is worth showing); the
      // description's own words are the buyer's, not news to them
      const ranked = rankCandidates([...looked, ...corrected])
        .filter((c) => c.stock.items > 0 || c.sources.includes('imagem'))
        .slice(0, MAX_ANSWERED);

      const names = await partNames([
        ...new Set(ranked.flatMap((c) => (c.stock.partId === null ? [] : [c.stock.partId]))),
      ]);
      const referencias: FoundReference[] = ranked.map((c) => ({
        referencia: c.written,
        normalizada: c.normalized,
        artigos_em_stock: c.stock.items,
        preco_minimo: c.stock.lowestPrice,
        peca:
          c.stock.partId === null ? null : { id: c.stock.partId, nome: names.get(c.stock.partId) ?? null },
        origem: c.sources,
        confianca: c.confidence,
        corrigida: c.corrected,
      }));
      const view = imageView(image, reading);
      const readNote = readingNote(view.leitura, timeoutMs);
      const top = referencias[0];
      if (top && top.artigos_em_stock > 0) {
        return {
          imagem: view,
          referencias,
          pesquisa_sugerida: { reference: top.referencia },
          nota: `Referência em stock encontrada ${where(top.origem)}. Use pesquisa_sugerida em POST /data/search para ver as ofertas.${readNote}`,
        };
      }
      const text = suggestedText(input.description);
      return {
        imagem: view,
        referencias,
        pesquisa_sugerida: text ? { text } : null,
        nota:
          (text
            ? 'Nenhuma referência em stock encontrada; pesquisa_sugerida procura pelo texto da descrição.'
            : 'Nenhuma referência em stock nem palavras pesquisáveis na descrição: descreva a peça (nome, marca, modelo).') +
          readNote,
      };
    },
  };
}

import type { SearchEngine } from '../search/engine.js';
import { readDataUriImage, type ImageFacts } from './data-uri-image.js';
import { outermost, referenceCandidates } from './reference-candidates.js';
import type { Tool } from './tool.js';

interface Input {
  image: string;
  description: string;
}

interface FoundReference {
  referencia: string;
  normalizada: string;
  artigos_em_stock: number;
}

interface Output {
  imagem: { tipo: string; largura: number; altura: number; bytes: number };
  referencias: FoundReference[];
  pesquisa_sugerida: Record<string, unknown> | null;
  nota: string;
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
const MAX_LOOKUPS = 12;

const imageView = (facts: ImageFacts) => ({
  tipo: `image/${facts.type}`,
  largura: facts.width,
  altura: facts.height,
  bytes: facts.bytes,
});

/**
 * "identificar-peca": from a photo and a free-text description, the references the description
 * names that exist in stock (own, associated or cross-reference), with how many items carry each,
 * and the search body to send to POST /data/search. The photo is checked and described (type,
 * dimensions) but not analysed: the service does no image recognition. Free of credits: it says
 * whether a reference is stocked, not the offers (those are the paid search).
 */
export function identifyPartTool(engine: SearchEngine): Tool<Input, Output> {
  return {
    slug: 'identificar-peca',
    summary:
      'Identifica referências de peças mencionadas na descrição e indica quantos artigos em stock as têm; valida e descreve a imagem (não é feito reconhecimento de imagem). Não gasta créditos.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['image', 'description'],
      properties: {
        image: {
          type: 'string',
          minLength: 1,
          description: 'data:<mime>;base64,<dados> (png, jpeg, webp, gif; ≤ 700 KB)',
        },
        description: { type: 'string', minLength: 1, maxLength: 2000 },
      },
    },
    outputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['imagem', 'referencias', 'pesquisa_sugerida', 'nota'],
      properties: {
        imagem: {
          type: 'object',
          additionalProperties: false,
          required: ['tipo', 'largura', 'altura', 'bytes'],
          properties: {
            tipo: { type: 'string' },
            largura: { type: 'integer' },
            altura: { type: 'integer' },
            bytes: { type: 'integer' },
          },
        },
        referencias: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['referencia', 'normalizada', 'artigos_em_stock'],
            properties: {
              referencia: { type: 'string' },
              normalizada: { type: 'string' },
              artigos_em_stock: { type: 'integer', minimum: 1 },
            },
          },
        },
        pesquisa_sugerida: { type: ['object', 'null'] },
        nota: { type: 'string' },
      },
    },
    async run(input) {
      const image = readDataUriImage(input.image);
      const candidates = referenceCandidates(input.description, MAX_LOOKUPS);
      const looked = await Promise.all(
        candidates.map(async (c) => ({
          ...c,
          total: (await engine.search({ reference: c.normalized }, { page: 1, perPage: 1 })).total,
        })),
      );
      const found = outermost(looked.filter((c) => c.total > 0)).sort((a, b) => b.total - a.total);
      const referencias = found.map((c) => ({
        referencia: c.written,
        normalizada: c.normalized,
        artigos_em_stock: c.total,
      }));
      if (referencias.length) {
        return {
          imagem: imageView(image),
          referencias,
          pesquisa_sugerida: { reference: referencias[0]!.referencia },
          nota: 'Referências encontradas na descrição e presentes em stock. Use pesquisa_sugerida em POST /data/search para ver as ofertas.',
        };
      }
      const text = suggestedText(input.description);
      return {
        imagem: imageView(image),
        referencias,
        pesquisa_sugerida: text ? { text } : null,
        nota: text
          ? 'Nenhuma referência em stock encontrada na descrição; pesquisa_sugerida procura pelo texto.'
          : 'Nenhuma referência em stock nem palavras pesquisáveis na descrição: descreva a peça (nome, marca, modelo).',
      };
    },
  };
}

import type { JsonSchema } from '../json-schema.js';
import { MAX_IMAGE_PIXELS } from './data-uri-image.js';

/** Input of identificar-peca, as GET /tools shows it. */
export const identifyPartInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['image', 'description'],
  description: 'A photo of the part, its box or its label, and what the caller knows of it.',
  properties: {
    image: {
      type: 'string',
      minLength: 1,
      description: `\`data:<mime>;base64,<data>\` of a PNG, JPEG, WebP or GIF (at most 700 KB, ${MAX_IMAGE_PIXELS / 1e6} megapixels, 10,000 pixels a side): a photo of the part, its box or its label, whose printed part numbers are read.`,
    },
    description: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: 'Free text: what the part is, and any reference the caller has (those are looked up too).',
    },
  },
};

/** Where a reference was found. */
const referenceSourceSchema = {
  type: 'string',
  enum: ['imagem', 'descricao'],
  description: 'Where a reference was found: read in the image, or written in the description. Closed list.',
};

/** The catalog part most of a reference's items are. */
const identifiedPartSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'nome'],
  description: 'The catalog part most of the reference’s items are.',
  properties: {
    id: { type: 'integer', description: 'What a search’s `part_id` takes.' },
    nome: { type: ['string', 'null'], description: 'Its Portuguese name.' },
  },
};

/** A reference found, and what the stock holds of it. */
const identifiedReferenceSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'referencia',
    'normalizada',
    'artigos_em_stock',
    'preco_minimo',
    'peca',
    'origem',
    'confianca',
    'corrigida',
  ],
  description: 'A reference read in the image or written in the description, looked up in stock.',
  properties: {
    referencia: { type: 'string', description: 'As read or written.' },
    normalizada: {
      type: 'string',
      description: 'Normalized as a search normalizes it: `1K0-615-301-AA` is `1K0615301AA`.',
    },
    artigos_em_stock: {
      type: 'integer',
      minimum: 0,
      description: 'Stock items it matches (own, associated or cross-reference).',
    },
    preco_minimo: {
      type: ['number', 'null'],
      description: 'The lowest of their prices, in EUR; null when none is stocked.',
    },
    peca: {
      description: 'The catalog part most of its items are; null when unknown.',
      anyOf: [identifiedPartSchema, { type: 'null' }],
    },
    origem: {
      type: 'array',
      items: referenceSourceSchema,
      minItems: 1,
      uniqueItems: true,
      description: 'Where it was found: the image, the description, or both.',
    },
    confianca: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description:
        'The recogniser’s confidence in the least sure word of the reading; 0.95 for what the description says.',
    },
    corrigida: {
      description:
        'Found by correcting a likely misreading (O/0, I/1, S/5, B/8, a stray character at an end).',
      type: 'boolean',
    },
  },
};

/** What was read of the image. */
const imageReadingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['tipo', 'largura', 'altura', 'bytes', 'leitura', 'texto'],
  description: 'The image, and what was read of it.',
  properties: {
    tipo: { type: 'string', description: 'Its media type.' },
    largura: { type: 'integer', description: 'Width in pixels.' },
    altura: { type: 'integer', description: 'Height in pixels.' },
    bytes: { type: 'integer' },
    leitura: {
      type: 'string',
      description:
        '`lida`: read; `sem_texto`: read, no text found; `tempo_esgotado`: not read in time (the answer comes from the description alone); `falhou`: the reader failed. Closed list.',
      enum: ['lida', 'sem_texto', 'tempo_esgotado', 'falhou'],
    },
    texto: {
      description: 'The lines of text read in the image (at most 20).',
      type: 'array',
      items: { type: 'string' },
    },
  },
};

/** The search to run next: a body for POST /data/search. */
const suggestedSearchSchema = {
  type: 'object',
  additionalProperties: false,
  description:
    'A body for POST /data/search: the first reference when it is stocked, else the description’s words as `text`.',
  properties: {
    reference: { type: 'string' },
    text: { type: 'string' },
  },
};

/** Output of identificar-peca. */
export const identifyPartOutputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['imagem', 'referencias', 'pesquisa_sugerida', 'nota'],
  description: 'What identificar-peca found.',
  properties: {
    imagem: imageReadingSchema,
    referencias: {
      description:
        'References read in the image or written in the description: stocked ones first, then by confidence; of those not stocked, only the ones read in the image (at most 10).',
      type: 'array',
      items: identifiedReferenceSchema,
    },
    pesquisa_sugerida: {
      description: 'The search to run next; null when there is nothing to search by.',
      anyOf: [suggestedSearchSchema, { type: 'null' }],
    },
    nota: { type: 'string', description: 'What was found, in Portuguese, for a person to read.' },
  },
};

/** The tool's shapes by the names generated clients give them. */
export const identifyPartSchemaNames = {
  IdentifyPartInput: identifyPartInputSchema,
  IdentifyPartOutput: identifyPartOutputSchema,
  ImageReading: imageReadingSchema,
  IdentifiedReference: identifiedReferenceSchema,
  IdentifiedPart: identifiedPartSchema,
  ReferenceSource: referenceSourceSchema,
  SuggestedSearch: suggestedSearchSchema,
};

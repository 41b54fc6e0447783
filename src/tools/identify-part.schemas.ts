import type { JsonSchema } from '../json-schema.js';
import { MAX_IMAGE_PIXELS } from './data-uri-image.js';

/** Input of identificar-peca, as GET /tools shows it. */
export const identifyPartInputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['image', 'description'],
  properties: {
    image: {
      type: 'string',
      minLength: 1,
      description: `data:<mime>;base64,<dados> (png, jpeg, webp, gif; ≤ 700 KB, ≤ ${MAX_IMAGE_PIXELS / 1e6} megapíxeis): foto da peça, da caixa ou da etiqueta; as referências impressas são lidas`,
    },
    description: { type: 'string', minLength: 1, maxLength: 2000 },
  },
};

/** Output of identificar-peca. */
export const identifyPartOutputSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['imagem', 'referencias', 'pesquisa_sugerida', 'nota'],
  properties: {
    imagem: {
      type: 'object',
      additionalProperties: false,
      required: ['tipo', 'largura', 'altura', 'bytes', 'leitura', 'texto'],
      properties: {
        tipo: { type: 'string' },
        largura: { type: 'integer' },
        altura: { type: 'integer' },
        bytes: { type: 'integer' },
        leitura: {
          description:
            'lida: o texto foi lido; sem_texto: lida, sem texto; tempo_esgotado: não foi lida a tempo (a resposta usa só a descrição); falhou: erro do leitor',
          enum: ['lida', 'sem_texto', 'tempo_esgotado', 'falhou'],
        },
        texto: {
          description: 'linhas de texto lidas na imagem (no máximo 20)',
          type: 'array',
          items: { type: 'string' },
        },
      },
    },
    referencias: {
      description:
        'referências lidas na imagem ou escritas na descrição: as que existem em stock primeiro, depois por confiança; das que não existem, só as lidas na imagem (no máximo 10)',
      type: 'array',
      items: {
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
        properties: {
          referencia: { type: 'string' },
          normalizada: { type: 'string' },
          artigos_em_stock: { type: 'integer', minimum: 0 },
          preco_minimo: { type: ['number', 'null'] },
          peca: {
            description: 'a peça do catálogo que os artigos em stock são (null se não se sabe)',
            oneOf: [
              {
                type: 'object',
                additionalProperties: false,
                required: ['id', 'nome'],
                properties: { id: { type: 'integer' }, nome: { type: ['string', 'null'] } },
              },
              { type: 'null' },
            ],
          },
          origem: {
            type: 'array',
            items: { enum: ['imagem', 'descricao'] },
            minItems: 1,
            uniqueItems: true,
          },
          confianca: { type: 'number', minimum: 0, maximum: 1 },
          corrigida: {
            description: 'encontrada corrigindo um carácter provavelmente mal lido (O/0, I/1, S/5, B/8, …)',
            type: 'boolean',
          },
        },
      },
    },
    pesquisa_sugerida: { type: ['object', 'null'] },
    nota: { type: 'string' },
  },
};

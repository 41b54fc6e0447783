import { Type, type Static } from '@sinclair/typebox';
import { CONDITIONS, type Condition } from '../db/schema.js';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** The highest price a stock item can have (numeric(12, 2)). */
export const MAX_PRICE = 9_999_999_999.99;

const text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, description });

const partId = (description: string) => Type.Integer({ minimum: 1, maximum: 2_147_483_647, description });

const price = (description: string) => Type.Number({ minimum: 0, maximum: MAX_PRICE, description });

/**
 * Request body of POST /data/search and /data/search/stats: the spec's fields plus the Portuguese
 * aliases. The same declaration is what ajv checks, what the OpenAPI document shows and the type the
 * handlers read.
 */
export const SearchBodySchema = Type.Object(
  {
    reference: Type.Optional(
      text(100, 'Referência OEM, aftermarket ou genérica; as referências associadas também são pesquisadas'),
    ),
    vehicle_make: Type.Optional(text(100, 'Marca do veículo')),
    vehicle_model: Type.Optional(
      text(100, 'Modelo do veículo (palavras inteiras a partir do início: "Golf" encontra "Golf VII")'),
    ),
    part_id: Type.Optional(partId('Id da peça no catálogo')),
    text: Type.Optional(text(200, 'Texto livre sobre título e descrição')),
    referencia: Type.Optional(text(100, 'Sinónimo de reference')),
    marca_veiculo: Type.Optional(text(100, 'Sinónimo de vehicle_make')),
    modelo_veiculo: Type.Optional(text(100, 'Sinónimo de vehicle_model')),
    parte_id: Type.Optional(partId('Sinónimo de part_id')),
    texto: Type.Optional(text(200, 'Sinónimo de text')),
    // an enum in the schema: a union of literals would be an anyOf, and its errors read differently
    condition: Type.Optional(Type.Unsafe<Condition>({ type: 'string', enum: [...CONDITIONS] })),
    is_oem: Type.Optional(Type.Boolean({ description: 'Só peças OEM' })),
    is_aftermarket: Type.Optional(Type.Boolean({ description: 'Só peças aftermarket' })),
    country: Type.Optional(
      Type.String({ pattern: '^[A-Za-z]{2}$', description: 'País do vendedor, ISO 3166-1 alfa-2' }),
    ),
    price_min: Type.Optional(price('Preço mínimo em EUR, no máximo com duas casas decimais')),
    price_max: Type.Optional(price('Preço máximo em EUR, no máximo com duas casas decimais')),
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE })),
    search_token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description: 'Token de uma primeira pesquisa, para paginar sem custo',
      }),
    ),
  },
  { additionalProperties: false },
);

export type SearchBody = Static<typeof SearchBodySchema>;

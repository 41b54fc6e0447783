import { dateTimeSchema, iso } from '../accounts/account.views.js';
import type { SellerProfile } from './sellers.js';

/** A seller profile as its owner sees it. */
export const sellerSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'A seller profile of the account: who sells the stock, where it is, how many items it holds.',
  required: ['id', 'name', 'country', 'city', 'items', 'created_at'],
  properties: {
    id: { type: 'string', description: 'The seller’s id: `seller` in /stock/feeds and /stock/items.' },
    name: { type: 'string' },
    country: { type: 'string', description: 'ISO 3166-1 alpha-2; a stock line without a country is there.' },
    city: { type: ['string', 'null'] },
    items: { type: 'integer', minimum: 0, description: 'Items in stock.' },
    created_at: dateTimeSchema,
  },
};

export const sellerView = (s: SellerProfile) => ({
  id: s.id,
  name: s.name,
  country: s.country_code,
  city: s.city,
  items: s.items,
  created_at: iso(s.created_at),
});

import countries from 'i18n-iso-countries';
import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { conflict, invalid, ServiceError } from '../errors.js';
import type { Principal } from '../principal.js';
import type { NewSeller, SellerChanges } from './sellers.schemas.js';

/** The most seller profiles one account may register. */
export const MAX_SELLERS_PER_ACCOUNT = 20;

/** A seller whose stock is written: who, and where a line without a country is. */
export interface Seller {
  id: string;
  name: string;
  country_code: string;
  city: string | null;
  created_at: Date;
}

/** A seller as its owner sees it. */
export interface SellerProfile extends Seller {
  /** items in stock */
  items: number;
}

/**
 * The sellers of an account (today's vendors rows with an owner) and who may write whose stock:
 * a session of the owning account writes any of its sellers; an API key with `stock:write` only
 * the seller it is bound to. Any other seller is a 404, as one that does not exist, so ids reveal
 * nothing.
 */
export interface SellersService {
  register(owner: Principal, input: NewSeller): Promise<SellerProfile>;
  list(owner: Principal): Promise<SellerProfile[]>;
  update(owner: Principal, sellerId: string, changes: SellerChanges): Promise<SellerProfile>;
  /** the seller whose stock this caller writes: the one named, or (an API key) its own */
  writable(principal: Principal, sellerId: string | undefined): Promise<Seller>;
}

export const sellerNotFound = () =>
  new ServiceError('SELLER_NOT_FOUND', 'Vendedor não encontrado (ou não pertence a esta credencial).');

const countryCode = (country: string): string => {
  const code = country.toUpperCase();
  if (!countries.isValid(code)) {
    throw invalid(
      `O país ${country} não é um código ISO 3166-1 alfa-2 válido (PT, ES…).`,
      'VALIDATION_ERROR',
    );
  }
  return code;
};

const name = (text: string): string => {
  const trimmed = text.trim();
  if (!trimmed) throw invalid('O campo corpo.name não pode estar em branco.', 'VALIDATION_ERROR');
  return trimmed;
};

const city = (text: string | null | undefined) => (text?.trim() ? text.trim() : null);

const selectSellers = (db: Database) =>
  db.selectFrom('vendors as v').select(['v.id', 'v.name', 'v.country_code', 'v.city', 'v.created_at']);

const selectProfiles = (db: Database) =>
  selectSellers(db).select(
    sql<number>`(select count(*)::int from stock_items i where i.vendor_id = v.id)`.as('items'),
  );

export function createSellersService(db: Database): SellersService {
  const ownSeller = async (accountId: string, sellerId: string): Promise<SellerProfile> => {
    const seller = await selectProfiles(db)
      .where('v.id', '=', sellerId)
      .where('v.account_id', '=', accountId)
      .executeTakeFirst();
    if (!seller) throw sellerNotFound();
    return seller;
  };

  return {
    async register(owner, input) {
      const values = {
        name: name(input.name),
        country_code: countryCode(input.country),
        city: city(input.city),
      };
      // under the account's row lock (the one every writer of the account takes first), so sellers
      // registered at once cannot pass the cap
      const id = await db.transaction().execute(async (trx) => {
        await trx
          .selectFrom('accounts')
          .select('id')
          .where('id', '=', owner.accountId)
          .forNoKeyUpdate()
          .execute();
        const { n } = await trx
          .selectFrom('vendors')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('account_id', '=', owner.accountId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= MAX_SELLERS_PER_ACCOUNT) {
          throw conflict(
            `Esta conta já tem ${n} perfis de vendedor, o máximo é ${MAX_SELLERS_PER_ACCOUNT}.`,
            'SELLER_LIMIT_REACHED',
          );
        }
        const row = await trx
          .insertInto('vendors')
          .values({ ...values, account_id: owner.accountId })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      });
      return ownSeller(owner.accountId, id);
    },

    list: (owner) => selectProfiles(db).where('v.account_id', '=', owner.accountId).orderBy('v.id').execute(),

    async update(owner, sellerId, changes) {
      const set = {
        ...(changes.name !== undefined ? { name: name(changes.name) } : {}),
        ...(changes.country !== undefined ? { country_code: countryCode(changes.country) } : {}),
        ...(changes.city !== undefined ? { city: city(changes.city) } : {}),
      };
      // a renamed seller owes the index its items' documents (the vendors trigger, sql/0031)
      const row = await db
        .updateTable('vendors')
        .set(set)
        .where('id', '=', sellerId)
        .where('account_id', '=', owner.accountId)
        .returning('id')
        .executeTakeFirst();
      if (!row) throw sellerNotFound();
      return ownSeller(owner.accountId, sellerId);
    },

    async writable(principal, sellerId) {
      if (principal.via === 'api_key') {
        if (!principal.sellerId || (sellerId !== undefined && sellerId !== principal.sellerId))
          throw sellerNotFound();
        const seller = await selectSellers(db).where('v.id', '=', principal.sellerId).executeTakeFirst();
        if (!seller) throw sellerNotFound();
        return seller;
      }
      if (sellerId === undefined) {
        throw invalid(
          'Indique o vendedor (seller=ID): a sessão pode escrever o stock de todos os da conta.',
          'VALIDATION_ERROR',
        );
      }
      const seller = await selectSellers(db)
        .where('v.id', '=', sellerId)
        .where('v.account_id', '=', principal.accountId)
        .executeTakeFirst();
      if (!seller) throw sellerNotFound();
      return seller;
    },
  };
}

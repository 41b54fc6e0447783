import type { ColumnType, Generated, GeneratedAlways } from 'kysely';
import type { Scope } from '../principal.js';

/** Table types for Kysely. Keep in step with sql/*.sql. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** numeric columns arrive as strings from pg; inserts accept numbers */
type Numeric = ColumnType<string, number | string, number | string>;
type Bigint = ColumnType<string, number | string | bigint, number | string | bigint>;
type GeneratedBigint = ColumnType<string, never, never>;
type ByDefaultBigint = ColumnType<string, number | string | bigint | undefined, number | string | bigint>;
type NullableBigint = ColumnType<
  string | null,
  number | string | bigint | null | undefined,
  number | string | bigint | null
>;

export interface AccountsTable {
  id: GeneratedBigint;
  email: string;
  name: string | null;
  password_hash: string;
  credits: Generated<number>;
  daily_credit_limit: number | null;
  /** UTC day that spent_today counts */
  spent_day: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
  spent_today: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: GeneratedBigint;
  account_id: Bigint;
  token_hash: Buffer;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface ApiKeysTable {
  id: GeneratedBigint;
  account_id: Bigint;
  name: string;
  prefix: string;
  key_hash: Buffer;
  rate_limit_per_minute: number | null;
  rate_limit_per_hour: number | null;
  daily_credit_limit: number | null;
  spent_day: ColumnType<Date | null, string | Date | null | undefined, string | Date | null>;
  spent_today: Generated<number>;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  /** sql/0033: what the key may do, and the seller a stock:write key is bound to */
  scopes: ColumnType<Scope[], Scope[] | undefined, Scope[]>;
  seller_id: NullableBigint;
}

/** sql/0027: an operator's plan for an account; NULL = the configured default */
export interface AccountPlansTable {
  account_id: Bigint;
  rate_limit_per_minute: number | null;
  rate_limit_per_hour: number | null;
  daily_credits: number | null;
  updated_at: Timestamp;
}

export interface CreditPackagesTable {
  id: string;
  name: string;
  credits: number;
  price_eur: Numeric;
  active: Generated<boolean>;
  sort_order: Generated<number>;
}

export interface PaymentsTable {
  id: GeneratedBigint;
  account_id: Bigint;
  package_id: string;
  provider: string;
  provider_ref: string;
  status: Generated<PaymentStatus>;
  credits: number;
  amount_eur: Numeric;
  checkout_url: string | null;
  created_at: Timestamp;
  paid_at: NullableTimestamp;
  /** sql/0030: the provider's checkout session (Stripe cs_…) and payment (pi_…) */
  provider_session_id: string | null;
  provider_payment_id: string | null;
  updated_at: NullableTimestamp;
  refunded_at: NullableTimestamp;
  refunded_eur: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  /** credits taken back by a refund (at most the balance then held) */
  credits_reversed: number | null;
}

export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'expired' | 'cancelled' | 'refunded';

export type SearchKind = 'search' | 'stats';

export interface SearchesTable {
  id: GeneratedBigint;
  account_id: Bigint;
  api_key_id: Bigint | null;
  kind: SearchKind;
  query: ColumnType<unknown, string, string>;
  query_summary: string;
  total: number;
  page: Generated<number>;
  per_page: Generated<number>;
  credits_spent: number;
  token_status: Generated<string>;
  created_at: Timestamp;
}

export type LedgerKind = 'signup' | 'search' | 'stats' | 'purchase' | 'adjustment';

export interface CreditLedgerTable {
  id: GeneratedBigint;
  account_id: Bigint;
  api_key_id: Bigint | null;
  kind: LedgerKind;
  delta: number;
  balance_after: number;
  search_id: Bigint | null;
  payment_id: Bigint | null;
  /** an adjustment's reason, as the operator gave it (sql/0032) */
  reason: string | null;
  created_at: Timestamp;
}

export interface VendorsTable {
  id: ByDefaultBigint;
  /** sql/0033: the account that manages the seller; null: operator-owned */
  account_id: NullableBigint;
  name: string;
  country_code: string;
  city: string | null;
  rating: Numeric | null;
  created_at: Timestamp;
}

export interface XrefGroupsTable {
  id: ByDefaultBigint;
  label: string | null;
  created_at: Timestamp;
}

export type ReferenceKind = 'oem' | 'aftermarket' | 'generic';

export interface XrefGroupReferencesTable {
  group_id: Bigint;
  reference: string;
  reference_norm: GeneratedAlways<string>;
  brand: string | null;
  kind: Generated<ReferenceKind>;
}

export const CONDITIONS = ['novo', 'usado_bom', 'usado_aceitavel', 'recondicionado', 'para_pecas'] as const;
export type Condition = (typeof CONDITIONS)[number];

export interface StockItemsTable {
  id: ByDefaultBigint;
  vendor_id: Bigint;
  reference: string;
  reference_norm: GeneratedAlways<string>;
  xref_group_id: Bigint | null;
  part_id: number | null;
  title: string;
  description: Generated<string>;
  condition: Condition;
  is_oem: Generated<boolean>;
  is_aftermarket: Generated<boolean>;
  price: Numeric;
  currency: Generated<string>;
  quantity: Generated<number>;
  vehicle_make: string | null;
  vehicle_model: string | null;
  vehicle_variant: string | null;
  make_norm: GeneratedAlways<string | null>;
  model_norm: GeneratedAlways<string | null>;
  variant_norm: GeneratedAlways<string | null>;
  location_country_code: string;
  /** sql/0045: the language of the title and description (src/stock/listing-language.ts), or null */
  text_language: string | null;
  /** sql/0033: the seller's own identifier, unique per seller (defaults to the id) */
  sku: Generated<string>;
  version: ColumnType<string, number | string | bigint | undefined, number | string | bigint>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface StockItemReferencesTable {
  item_id: Bigint;
  reference: string;
  reference_norm: GeneratedAlways<string>;
  kind: Generated<ReferenceKind>;
  brand: string | null;
}

/** The search index's ledger (sql/0020, 0029, 0031): one owed row per item until the index confirms it. */
export interface SearchOutboxTable {
  id: GeneratedBigint;
  item_id: Bigint;
  /** the item's version after the change; for a deletion, its tombstone's version */
  version: Bigint;
  deleted: Generated<boolean>;
  /** every recorded change draws one (a rebuild replays the changes after its mark) */
  change_seq: ColumnType<string, never, never>;
  created_at: Timestamp;
  /** when OpenSearch confirmed the item at this version or later; null while owed */
  done_at: NullableTimestamp;
  /** when the relay may hand the row out (again) */
  available_at: Timestamp;
  /** the queue job it was last handed to */
  job_id: string | null;
  handed_count: Generated<number>;
  /** the cluster refused the document for its content */
  rejected_reason: string | null;
  rejected_at: NullableTimestamp;
}

/** The indexer's switch, its rebuild requests and its continuous verification (one row). */
export interface SearchIndexerStateTable {
  singleton: Generated<boolean>;
  enabled: Generated<boolean>;
  enabled_at: NullableTimestamp;
  rebuild_requested_at: NullableTimestamp;
  /** the sweep has verified every id up to this one in its current pass */
  sweep_after_id: ColumnType<string, number | string | undefined, number | string>;
  sweep_started_at: NullableTimestamp;
  /** items found different so far in the current pass */
  sweep_drift: Generated<number>;
  last_sweep_completed_at: NullableTimestamp;
  last_sweep_drift: number | null;
}

/** Rebuilds in progress and the change mark each will replay from. */
export interface SearchRebuildsTable {
  index_name: string;
  change_mark: Bigint;
  started_at: Timestamp;
  heartbeat_at: Timestamp;
}

export type FeedStatus = 'receiving' | 'received' | 'validating' | 'applying' | 'done' | 'refused' | 'failed';

/** sql/0033: a seller's stock feed, from its upload to its outcome. */
export interface StockFeedsTable {
  id: GeneratedBigint;
  vendor_id: Bigint;
  account_id: Bigint | null;
  mode: 'full' | 'delta';
  format: 'csv' | 'jsonl';
  gzipped: Generated<boolean>;
  dry_run: Generated<boolean>;
  force: Generated<boolean>;
  status: Generated<FeedStatus>;
  bytes: ColumnType<string, number | string | undefined, number | string>;
  lines: Generated<number>;
  created: Generated<number>;
  updated: Generated<number>;
  unchanged: Generated<number>;
  removed: Generated<number>;
  rejected: Generated<number>;
  warnings: ColumnType<string[], string | undefined, string>;
  reason: string | null;
  reason_code: string | null;
  created_at: Timestamp;
  received_at: NullableTimestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  heartbeat_at: NullableTimestamp;
  body_sha256: Buffer | null;
  stock_after: string | null;
  attempt: Generated<number>;
}

export interface StockFeedChunksTable {
  feed_id: Bigint;
  seq: number;
  data: Buffer;
}

export interface StockFeedErrorsTable {
  id: GeneratedBigint;
  feed_id: Bigint;
  line: number;
  sku: string | null;
  field: string | null;
  message: string;
}

export interface SchemaMigrationsTable {
  name: string;
  checksum: string;
  applied_at: Timestamp;
}

/**
 * The tables every module knows. Modules that own more tables (catalog, outbox) extend this
 * interface through declaration merging in their own db-types file.
 */
export interface DB extends CatalogDB {
  accounts: AccountsTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  account_plans: AccountPlansTable;
  credit_packages: CreditPackagesTable;
  payments: PaymentsTable;
  searches: SearchesTable;
  credit_ledger: CreditLedgerTable;
  vendors: VendorsTable;
  xref_groups: XrefGroupsTable;
  xref_group_references: XrefGroupReferencesTable;
  stock_items: StockItemsTable;
  stock_item_references: StockItemReferencesTable;
  search_outbox: SearchOutboxTable;
  search_indexer_state: SearchIndexerStateTable;
  search_rebuilds: SearchRebuildsTable;
  stock_feeds: StockFeedsTable;
  stock_feed_chunks: StockFeedChunksTable;
  stock_feed_errors: StockFeedErrorsTable;
  schema_migrations: SchemaMigrationsTable;
}

type Labels = Record<'pt' | 'en' | 'es' | 'fr' | 'de' | 'it', string>;

export interface CatalogListsTable {
  kind: string;
  code: string;
  sort_order: Generated<number>;
  names: ColumnType<Labels, string, string>;
}

export interface CatalogPartsTable {
  id: number;
  code: string;
  group_code: string;
  type_code: string;
  location_code: string | null;
  side_code: string | null;
  names: ColumnType<Labels, string, string>;
  name_fold_pt: GeneratedAlways<string>;
  name_fold_en: GeneratedAlways<string>;
  name_fold_es: GeneratedAlways<string>;
  name_fold_fr: GeneratedAlways<string>;
  name_fold_de: GeneratedAlways<string>;
  name_fold_it: GeneratedAlways<string>;
}

export interface VehicleMakesTable {
  id: number;
  name: string;
  country_code: string | null;
  name_fold: GeneratedAlways<string>;
}

export interface VehicleModelsTable {
  id: number;
  make_id: number;
  name: string;
  year_from: number | null;
  year_to: number | null;
  name_fold: GeneratedAlways<string>;
}

export interface VehicleVariantsTable {
  id: number;
  model_id: number;
  name: string;
  year_from: number | null;
  year_to: number | null;
  body_type: string | null;
  fuel_code: string | null;
  power_kw: number | null;
  power_hp: number | null;
  displacement_cc: number | null;
  engine_codes: ColumnType<string[], string[] | undefined, string[]>;
  name_fold: GeneratedAlways<string>;
}

export interface VehicleEnginesTable {
  id: number;
  variant_id: number;
  code: string;
  fuel_code: string | null;
  displacement_cc: number | null;
  power_kw: number | null;
  power_hp: number | null;
  cylinders: number | null;
}

export interface CatalogDB {
  catalog_lists: CatalogListsTable;
  catalog_parts: CatalogPartsTable;
  vehicle_makes: VehicleMakesTable;
  vehicle_models: VehicleModelsTable;
  vehicle_variants: VehicleVariantsTable;
  vehicle_engines: VehicleEnginesTable;
}

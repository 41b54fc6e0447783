import { describe, expect, it } from 'vitest';
import type { StockDocument, StockItem } from '../../src/search/engine.js';
import { toHit, toSource } from '../../src/search/opensearch/documents.js';

// toSource writes each field out by hand (a rebuild builds millions of documents) while toHit reads
// hits back through SOURCE_FIELDS: every field given a value of its own shows a swapped or
// forgotten one.
const item: StockItem = {
  id: 41,
  reference: 'A-100',
  references: [{ reference: 'B 200', kind: 'oem', brand: 'Bosch' }],
  title: 'Filtro de óleo',
  description: 'Novo, na caixa',
  partId: 7,
  condition: 'usado_bom',
  isOem: true,
  isAftermarket: false,
  price: 12.34,
  currency: 'EUR',
  vendorId: 9,
  vendorName: 'Peças Lda',
  countryCode: 'PT',
  vehicleMake: 'Fiat',
  vehicleModel: 'Punto',
  vehicleVariant: '1.2',
  quantity: 3,
  updatedAt: '2026-12-07T01:02:03.000Z',
};
const document: StockDocument = {
  ...item,
  referenceNorm: 'a100',
  xrefReferences: [{ reference: 'C-300', kind: 'aftermarket', brand: null }],
  referencesNorm: ['a100', 'b200', 'c300'],
  xrefGroupId: 5,
  textLanguage: 'pt',
  version: 8,
  contentHash: 'f'.repeat(32),
};

describe('a stock document in the index', () => {
  it('reads back as the same item', () => {
    expect(toHit(toSource(document), undefined)).toEqual({ ...item, matchedReference: null });
    expect(toSource(document)).toMatchObject({
      references_norm: document.referencesNorm,
      xref_group_id: document.xrefGroupId,
      xref_references: document.xrefReferences,
      price_cents: 1234,
      content_hash: document.contentHash,
    });
  });
});

/**
 * What the generated types refuse, as the document says (compiled with example.ts; each line
 * marked @ts-expect-error must be an error, or the build fails).
 */
import type { SearchRequest, StockItem } from './generated/types.gen.js';

// @ts-expect-error a field the search does not take
export const unknownField: SearchRequest = { reference: '7701442136', colour: 'red' };
// @ts-expect-error the conditions are a closed list
export const unknownCondition: SearchRequest = { reference: '7701442136', condition: 'bom' };
export const byReference: SearchRequest = { reference: '77 01 442 136', condition: 'usado_bom' };
export const byAlias: SearchRequest = { referencia: '7701442136' };
export const price = (item: StockItem): number => item.preco;

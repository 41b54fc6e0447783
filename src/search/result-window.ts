import { invalid } from '../errors.js';
import type { PageRequest } from './engine.js';

/**
 * The deepest result a page may reach, on every engine: the OpenSearch index's max_result_window
 * (mappings/stock.json), held to on Postgres as well so that both engines serve the same pages.
 */
export const MAX_RESULT_WINDOW = 10_000;

/**
 * Pages are served within the first MAX_RESULT_WINDOW results. The search service checks it before
 * an engine is asked, so engines are never asked for a page beyond it. A search's own rule: the
 * statistics endpoint, which has no pages, ignores page and per_page.
 */
export function assertWithinResultWindow({ page, perPage }: PageRequest): void {
  if (page * perPage > MAX_RESULT_WINDOW) {
    throw invalid(
      `A paginação está limitada aos primeiros ${MAX_RESULT_WINDOW.toLocaleString('pt-PT')} resultados (page × per_page ≤ ${MAX_RESULT_WINDOW}); refine a pesquisa com filtros.`,
      'PAGE_OUT_OF_RANGE',
    );
  }
}

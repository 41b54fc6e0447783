import { useState } from 'preact/hooks';
import type { Answer } from '../../api';
import type { SearchAnswer } from '../../api-types';
import { codeLabel, useI18n } from '../../i18n';
import { formatMoney } from '../../ui';
import type { CodeNames } from './catalog-pickers';

/** Sends a search request; null when it was refused (the refusal is the page's to show). */
export type SendSearch = (body: Record<string, unknown>) => Promise<Answer<SearchAnswer> | null>;

/** A page of results as shown: the answer, and the state of the search token it was asked with. */
interface ShownPage {
  answer: SearchAnswer;
  tokenStatus: string;
}

/**
 * The results of the search `body`: `search` asks for its first page (paid), `page` for another one
 * with the first answer's search token, which makes it free. A page's answer may come without a
 * token; the one already held is kept for the pages after it.
 */
export function useSearchResults(send: SendSearch, body: Record<string, unknown>) {
  const [shown, setShown] = useState<ShownPage | null>(null);
  const show = (answered: Answer<SearchAnswer>, heldToken?: string) =>
    setShown({
      answer: { ...answered.data, search_token: answered.data.search_token ?? heldToken },
      tokenStatus: answered.headers.get('X-Search-Token-Status') ?? '',
    });

  const search = async () => {
    const answered = await send(body);
    if (answered) show(answered);
  };
  const page = async (to: number) => {
    if (!shown) return;
    const token = shown.answer.search_token;
    const answered = await send({ ...body, page: to, ...(token ? { search_token: token } : {}) });
    if (answered) show(answered, token);
  };
  return { shown, search, page };
}

/** The page of results in a table, and the pager (the next page free while the token holds). */
export function SearchResults({
  shown: { answer, tokenStatus },
  busy,
  onPage,
  names,
}: {
  shown: ShownPage;
  busy: boolean;
  onPage: (to: number) => void;
  names: CodeNames;
}) {
  const { t, lang } = useI18n();
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title">
        {t('results')}: {answer.total}
      </h2>
      <p data-testid="spent" role="status">
        {t('spent', { n: answer.credits_spent, left: answer.credits_remaining })} · {t('tokenStatus')}:{' '}
        {tokenStatus && codeLabel(t, 'token', tokenStatus)}
        {answer.page > 1 && answer.credits_spent === 0 && ` (${t('freePage')})`}
      </p>
      <table class="responsive">
        <thead>
          <tr>
            <th scope="col">{t('reference')}</th>
            <th scope="col">{t('title')}</th>
            <th scope="col">{t('condition')}</th>
            <th scope="col">{t('price')}</th>
            <th scope="col">{t('seller')}</th>
            <th scope="col">{t('country')}</th>
          </tr>
        </thead>
        <tbody>
          {answer.results.map((r) => (
            <tr key={r.id}>
              <td data-label={t('reference')}>{r.referencia_oem ?? '—'}</td>
              <td data-label={t('title')}>{r.titulo}</td>
              <td data-label={t('condition')}>{names.condition(r.condicao)}</td>
              <td data-label={t('price')} class="money" data-testid="price">
                {formatMoney(r.preco, lang, r.moeda)}
              </td>
              <td data-label={t('seller')}>{r.vendor_nome}</td>
              <td data-label={t('country')}>{names.country(r.location_country_code)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav class="pager" aria-label={t('results')}>
        <button
          type="button"
          class="secondary"
          disabled={busy || answer.page <= 1}
          onClick={() => onPage(answer.page - 1)}
        >
          {t('previous')}
        </button>
        <span data-testid="page">{t('pageOf', { page: answer.page, pages: answer.total_pages })}</span>
        <button
          type="button"
          class="secondary"
          disabled={busy || answer.page >= answer.total_pages}
          onClick={() => onPage(answer.page + 1)}
        >
          {t('next')} {answer.search_token ? `(${t('freePage')})` : ''}
        </button>
      </nav>
    </section>
  );
}

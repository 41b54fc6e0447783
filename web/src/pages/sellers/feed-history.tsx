import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api';
import type { FeedsAnswer } from '../../api-types';
import { codeLabel, useI18n } from '../../i18n';
import { FormError, formatBytes, formatDate, refusalOf, type Refusal } from '../../ui';
import { COUNTS, ErrorReportButton, modeLabel } from './feed-card';
import { isFinished, type Feed } from './feed-files';

const PER_PAGE = 10;

/**
 * A seller's feeds, newest first, with their counts and states: each can be opened (followed live
 * if still running), and one with rejected lines has its error report. Asked again whenever
 * `refresh` changes (a feed sent, or the one shown moving on).
 */
export function FeedHistory({
  sellerId,
  refresh,
  onView,
}: {
  sellerId: string;
  refresh: number;
  onView: (feed: Feed) => void;
}) {
  const { t, lang } = useI18n();
  const [page, setPage] = useState(1);
  const [history, setHistory] = useState<FeedsAnswer | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  useEffect(() => {
    let current = true;
    api<FeedsAnswer>('GET', '/stock/feeds', { query: { seller: sellerId, page, per_page: PER_PAGE } })
      .then(({ data }) => {
        if (!current) return;
        setHistory(data);
        setRefusal(null);
      })
      .catch((error) => current && setRefusal(refusalOf(error)));
    return () => {
      current = false;
    };
  }, [sellerId, page, refresh]);

  const pages = history ? Math.max(1, Math.ceil(history.total / PER_PAGE)) : 1;
  return (
    <section aria-labelledby="feed-history">
      <h2 id="feed-history">{t('feedHistory')}</h2>
      <FormError refusal={refusal} fields={[]} />
      {history === null ? (
        !refusal && <p>{t('loading')}</p>
      ) : history.feeds.length === 0 ? (
        <p>{t('noFeeds')}</p>
      ) : (
        <>
          <table class="responsive feeds" data-testid="feed-history">
            <thead>
              <tr>
                <th scope="col">{t('received')}</th>
                <th scope="col">{t('mode')}</th>
                <th scope="col">{t('file')}</th>
                <th scope="col">{t('status')}</th>
                {COUNTS.map(([name, label]) => (
                  <th scope="col" key={name} class="number">
                    {t(label)}
                  </th>
                ))}
                <th scope="col">{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {history.feeds.map((feed) => (
                <tr key={feed.id} data-feed={feed.id}>
                  <td data-label={t('received')}>{formatDate(feed.received_at ?? feed.created_at, lang)}</td>
                  <td data-label={t('mode')}>{modeLabel(feed, t)}</td>
                  <td data-label={t('file')}>
                    {[
                      codeLabel(t, 'format', feed.format),
                      ...(feed.gzipped ? ['gzip'] : []),
                      formatBytes(feed.bytes, lang),
                    ].join(' · ')}
                  </td>
                  <td data-label={t('status')} data-status={feed.status}>
                    {codeLabel(t, 'feed', feed.status)}
                  </td>
                  {COUNTS.map(([name, label]) => (
                    <td data-label={t(label)} key={name} class="number" data-count={name}>
                      {feed.counts[name]}
                    </td>
                  ))}
                  <td data-label={t('actions')}>
                    <span class="actions">
                      <button type="button" class="secondary" onClick={() => onView(feed)}>
                        {t('view')} <span class="visually-hidden">{t('ofFeed', { id: feed.id })}</span>
                      </button>
                      {isFinished(feed.status) && feed.counts.rejected > 0 && (
                        <ErrorReportButton feedId={feed.id}>
                          {t('errorReportShort')}{' '}
                          <span class="visually-hidden">{t('ofFeed', { id: feed.id })}</span>
                        </ErrorReportButton>
                      )}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {pages > 1 && (
            <nav class="pager" aria-label={t('feedHistory')}>
              <button type="button" class="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('previous')}
              </button>
              <span>{t('pageOf', { page, pages })}</span>
              <button
                type="button"
                class="secondary"
                disabled={page >= pages}
                onClick={() => setPage(page + 1)}
              >
                {t('next')}
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}

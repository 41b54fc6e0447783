import type { ComponentChildren, Ref } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import type { FeedAnswer } from '../../api-types';
import { codeLabel, useI18n, type MessageKey, type Translate } from '../../i18n';
import { FormError, refusalOf, useSubmit, type Refusal } from '../../ui';
import { downloadErrorReport, isFinished, type Feed, type FeedDetail } from './feed-files';

/**
 * How soon a feed still running is asked again: at once at first, then less and less often. The
 * /stock routes count in the account's request windows (with its API keys' traffic), so a feed
 * that takes minutes must not spend them.
 */
const FIRST_POLL_MS = 500;
const LAST_POLL_MS = 5_000;
/** After a refusal (429 above all) or no answer: wait longer, then go on. */
const RETRY_MS = 10_000;

/** A feed's mode and options in words: "Completo · simulação". */
export function modeLabel(feed: Feed, t: Translate): string {
  return [
    codeLabel(t, 'mode', feed.mode),
    ...(feed.dry_run ? [t('simulation')] : []),
    ...(feed.force ? [t('forced')] : []),
  ].join(' · ');
}

/** The counts a feed reports, in the order the card and the history show them. */
export const COUNTS: [keyof Feed['counts'], MessageKey][] = [
  ['lines', 'lines'],
  ['created', 'createdCount'],
  ['updated', 'updatedCount'],
  ['unchanged', 'unchangedCount'],
  ['removed', 'removedCount'],
  ['rejected', 'rejectedCount'],
];

/**
 * A feed as it goes: asked again until it is done, refused or failed; `onStatus`
 * hears each new state (the page then refreshes the history, and the seller's items at the end).
 * Shows `first` (the upload's answer, or the history's row) until the first answer.
 */
export function useFeed(id: string, first: Feed | null, onStatus: (feed: FeedDetail) => void) {
  const [feed, setFeed] = useState<FeedDetail | null>(first && { ...first, first_errors: [] });
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const heard = useRef(onStatus);
  heard.current = onStatus;
  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastStatus = first?.status ?? '';
    let delay = FIRST_POLL_MS;
    const ask = async () => {
      try {
        const { data } = await api<FeedAnswer>('GET', `/stock/feeds/${id}`);
        if (!current) return;
        setFeed(data.feed);
        setRefusal(null);
        if (data.feed.status !== lastStatus) {
          lastStatus = data.feed.status;
          heard.current(data.feed);
        }
        if (!isFinished(data.feed.status)) {
          timer = setTimeout(ask, delay);
          delay = Math.min(delay * 1.5, LAST_POLL_MS);
        }
      } catch (error) {
        if (!current) return;
        setRefusal(refusalOf(error));
        // too many requests, or no answer at all: keep following it, later (not after a 401 or 404)
        if (
          error instanceof ApiError &&
          (error.status === 0 || error.status === 429 || error.status >= 500)
        ) {
          timer = setTimeout(ask, RETRY_MS);
        }
      }
    };
    void ask();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [id]);
  return { feed, refusal };
}

/** Downloads a feed's error report; a refusal is shown beside the button. */
export function ErrorReportButton({ feedId, children }: { feedId: string; children: ComponentChildren }) {
  const { refusal, busy, submit } = useSubmit(() => downloadErrorReport(feedId));
  return (
    <>
      <button type="button" class="secondary" data-testid="error-report" onClick={() => !busy && submit()}>
        {children}
      </button>
      <FormError refusal={refusal} fields={[]} />
    </>
  );
}

/**
 * One feed: its state (announced as it changes), the counts so far, warnings, why it was refused
 * or failed, its first rejected lines and the download of all of them.
 */
export function FeedCard({
  feed,
  refusal,
  headingRef,
}: {
  feed: FeedDetail;
  refusal: Refusal | null;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const { t } = useI18n();
  const finished = isFinished(feed.status);
  const note =
    feed.status === 'done' && feed.dry_run
      ? t('dryRunDone')
      : feed.status === 'refused'
        ? t('refusedNote')
        : feed.status === 'failed'
          ? t('failedNote')
          : '';
  const titleId = `feed-${feed.id}-title`;
  return (
    <section class="feed-card" aria-labelledby={titleId} data-testid="feed" data-status={feed.status}>
      <h3 id={titleId} tabIndex={-1} ref={headingRef}>
        {t('feedTitle', { id: feed.id })} · {modeLabel(feed, t)}
      </h3>
      <p role="status" data-testid="feed-status">
        <strong>{codeLabel(t, 'feed', feed.status)}</strong>
        {note && ` — ${note}`}
      </p>
      {!finished && <progress class="processing" aria-label={t('processing')} />}
      <dl class="counts" data-testid="feed-counts">
        {COUNTS.map(([name, label]) => (
          <div key={name}>
            <dt>{t(label)}</dt>
            <dd data-count={name}>{feed.counts[name]}</dd>
          </div>
        ))}
      </dl>
      {feed.reason && (
        <p class="error" data-testid="feed-reason">
          <strong>{t('reason')}:</strong> {feed.reason}
        </p>
      )}
      {feed.warnings.length > 0 && (
        <>
          <h4>{t('warnings')}</h4>
          <ul data-testid="feed-warnings">
            {feed.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </>
      )}
      {feed.first_errors.length > 0 && (
        <table class="responsive" data-testid="first-errors">
          <caption>{t('firstErrors')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('line')}</th>
              <th scope="col">{t('sku')}</th>
              <th scope="col">{t('field')}</th>
              <th scope="col">{t('message')}</th>
            </tr>
          </thead>
          <tbody>
            {feed.first_errors.map((error) => (
              <tr key={`${error.line}-${error.field}`}>
                <td data-label={t('line')}>{error.line}</td>
                <td data-label={t('sku')}>{error.sku ?? '—'}</td>
                <td data-label={t('field')}>{error.field ?? t('wholeLine')}</td>
                <td data-label={t('message')}>{error.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {finished && feed.counts.rejected > 0 && (
        <div class="actions">
          <ErrorReportButton feedId={feed.id}>{t('errorReport')}</ErrorReportButton>
        </div>
      )}
      <FormError refusal={refusal} fields={[]} />
    </section>
  );
}

/** The feed shown under the upload form (just sent, or picked in the history), followed live. */
export function LiveFeed({
  id,
  first,
  focus,
  onStatus,
}: {
  id: string;
  first: Feed | null;
  /** take the focus (the person asked to see it from the history) */
  focus: boolean;
  onStatus: (feed: FeedDetail) => void;
}) {
  const { t } = useI18n();
  const { feed, refusal } = useFeed(id, first, onStatus);
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = feed !== null;
  useEffect(() => {
    if (focus && shown) heading.current?.focus();
  }, [focus, shown]);
  if (!feed) return refusal ? <FormError refusal={refusal} fields={[]} /> : <p>{t('loading')}</p>;
  return <FeedCard feed={feed} refusal={refusal} headingRef={heading} />;
}

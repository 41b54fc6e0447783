import { lazy, Suspense } from 'preact/compat';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../api';
import type { HistoryAnswer } from '../api-types';
import { codeLabel, useI18n, type MessageKey, type Translate } from '../i18n';
import { Field, FormError, formatDate, refusalOf, SelectField, type Refusal } from '../ui';

const Chart = lazy(() => import('./chart'));

type History = HistoryAnswer;
type Search = NonNullable<History['results'][number]['search']>;

const KINDS = ['search', 'stats', 'signup', 'purchase', 'adjustment'];

/** The label of each search field a history entry names (the playground's own labels). */
const FIELD_LABELS: Record<string, MessageKey> = {
  reference: 'reference',
  text: 'text',
  vehicle_make: 'make',
  vehicle_model: 'model',
  part_id: 'part',
  condition: 'condition',
  country: 'country',
  price_min: 'priceMin',
  price_max: 'priceMax',
  is_oem: 'isOem',
  is_aftermarket: 'isAftermarket',
};

/** A search as the history lists it: its fields by their labels, then what it found. */
function describeSearch(search: Search, t: Translate): string {
  const fields = Object.entries(search.query).map(([name, value]) => {
    const label = FIELD_LABELS[name] ? t(FIELD_LABELS[name]) : name;
    const shown = typeof value === 'boolean' ? t(value ? 'yes' : 'no') : String(value);
    return `${label}: ${shown}`;
  });
  const outcome = t('searchOutcome', {
    total: search.total,
    page: search.page,
    token: codeLabel(t, 'token', search.token_status),
  });
  return `${fields.join('; ') || search.query_summary} (${outcome})`;
}
const DAY = 86_400_000;
const dayInput = (time: number) => new Date(time).toISOString().slice(0, 10);

/** A chart's x value (Unix seconds at a UTC midnight) as the day it is. */
const formatDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** Credits spent, credits bought and searches per UTC day, over the filtered range (up to 1,000 entries). */
async function perDay(from: string, to: string) {
  const days = new Map<number, { spent: number; bought: number; searches: number }>();
  const start = Date.parse(from);
  const end = Date.parse(to);
  for (let day = start; day < end; day += DAY) days.set(day / 1000, { spent: 0, bought: 0, searches: 0 });
  for (let page = 1; page <= 10; page++) {
    const { data } = await api<History>('GET', '/data/credits/history', {
      query: { from, to, page, per_page: 100 },
    });
    for (const entry of data.results) {
      const day = Math.floor(Date.parse(entry.created_at) / DAY) * 86_400;
      const counts = days.get(day);
      if (!counts) continue;
      if (entry.credits < 0) counts.spent -= entry.credits;
      if (entry.kind === 'purchase') counts.bought += entry.credits;
      if (entry.kind === 'search') counts.searches += 1;
    }
    if (page >= data.total_pages) break;
  }
  const x = [...days.keys()];
  const column = (name: 'spent' | 'bought' | 'searches') => x.map((d) => days.get(d)![name]);
  return {
    x,
    days: x.map(formatDay),
    spent: column('spent'),
    bought: column('bought'),
    searches: column('searches'),
  };
}

export function Usage() {
  const { t, lang } = useI18n();
  const today = Math.floor(Date.now() / DAY) * DAY;
  const [kind, setKind] = useState('');
  const [from, setFrom] = useState(dayInput(today - 29 * DAY));
  const [to, setTo] = useState(dayInput(today));
  const [page, setPage] = useState(1);
  const [applied, setApplied] = useState({ kind, from, to });
  const [history, setHistory] = useState<History | null>(null);
  const [series, setSeries] = useState<Awaited<ReturnType<typeof perDay>> | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const range = (f: string, tt: string) => ({
    from: f ? `${f}T00:00:00Z` : undefined,
    to: tt ? new Date(Date.parse(`${tt}T00:00:00Z`) + DAY).toISOString() : undefined,
  });

  // An answer that comes after the person asked for something else (another page, other filters)
  // is dropped: only the latest request's answer is shown.
  useEffect(() => {
    let current = true;
    const { from: f, to: tt } = range(applied.from, applied.to);
    api<History>('GET', '/data/credits/history', {
      query: { kind: applied.kind, from: f, to: tt, page, per_page: 20 },
    })
      .then(({ data }) => {
        if (!current) return;
        setHistory(data);
        setRefusal(null);
      })
      .catch((error) => current && setRefusal(refusalOf(error)));
    return () => {
      current = false;
    };
  }, [applied, page]);

  useEffect(() => {
    let current = true;
    const { from: f, to: tt } = range(applied.from, applied.to);
    if (f && tt)
      perDay(f, tt).then(
        (days) => current && setSeries(days),
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [applied.from, applied.to]);

  const chartSeries = useMemo(
    () =>
      series && [
        { label: t('creditsSpent'), values: series.spent, color: '#c0392b' },
        { label: t('creditsBought'), values: series.bought, color: '#1e8449' },
        { label: t('searches'), values: series.searches, color: '#2f6db5' },
      ],
    [series, t],
  );

  const submit = (event: Event) => {
    event.preventDefault();
    setPage(1);
    setApplied({ kind, from, to });
  };

  return (
    <section>
      <h1>{t('usage')}</h1>
      <form onSubmit={submit} class="grid-form">
        <SelectField name="kind" label={t('kind')} value={kind} onValue={setKind} refusal={refusal}>
          <option value="">{t('all')}</option>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {codeLabel(t, 'kind', k)}
            </option>
          ))}
        </SelectField>
        <Field name="from" label={t('from')} type="date" value={from} onValue={setFrom} refusal={refusal} />
        <Field name="to" label={t('to')} type="date" value={to} onValue={setTo} refusal={refusal} />
        <div>
          <button type="submit">{t('filter')}</button>
        </div>
      </form>
      <FormError refusal={refusal} fields={['kind', 'from', 'to']} />
      {series && chartSeries && (
        <Suspense fallback={<p>{t('loading')}</p>}>
          <Chart
            title={t('chartTitle')}
            xLabel={t('day')}
            xLabels={series.days}
            x={series.x}
            series={chartSeries}
          />
        </Suspense>
      )}
      {history && (
        <>
          <table class="responsive">
            <thead>
              <tr>
                <th scope="col">{t('date')}</th>
                <th scope="col">{t('kind')}</th>
                <th scope="col">{t('change')}</th>
                <th scope="col">{t('balanceAfter')}</th>
                <th scope="col">{t('query')}</th>
              </tr>
            </thead>
            <tbody>
              {history.results.map((entry) => (
                <tr key={entry.id}>
                  <td data-label={t('date')}>{formatDate(entry.created_at, lang)}</td>
                  <td data-label={t('kind')} data-kind={entry.kind}>
                    {codeLabel(t, 'kind', entry.kind)}
                  </td>
                  <td data-label={t('change')}>{entry.credits}</td>
                  <td data-label={t('balanceAfter')}>{entry.balance_after ?? '—'}</td>
                  <td data-label={t('query')}>{entry.search ? describeSearch(entry.search, t) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav class="pager" aria-label={t('usage')}>
            <button type="button" class="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t('previous')}
            </button>
            <span>{t('pageOf', { page: history.page, pages: Math.max(1, history.total_pages) })}</span>
            <button
              type="button"
              class="secondary"
              disabled={page >= history.total_pages}
              onClick={() => setPage(page + 1)}
            >
              {t('next')}
            </button>
          </nav>
        </>
      )}
    </section>
  );
}

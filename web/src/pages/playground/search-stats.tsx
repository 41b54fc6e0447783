import { lazy, Suspense } from 'preact/compat';
import { useMemo } from 'preact/hooks';
import type { StatsAnswer } from '../../api-types';
import { useI18n } from '../../i18n';
import { formatMoney } from '../../ui';
import type { CodeNames } from './catalog-pickers';

const Chart = lazy(() => import('../chart'));

/** A price summary of one condition or country. */
type Bucket = StatsAnswer['stats']['by_country'][string];

/**
 * A breakdown of the statistics (by condition, by country): each bucket named as the person reads
 * it, the largest first.
 */
function BucketTable({
  caption,
  buckets,
  nameOf,
}: {
  caption: string;
  buckets: Record<string, Bucket>;
  nameOf: (code: string) => string;
}) {
  const { t, lang } = useI18n();
  const rows = Object.entries(buckets)
    .map(([code, bucket]) => ({ code, name: nameOf(code), bucket }))
    .sort((a, b) => b.bucket.count - a.bucket.count || a.name.localeCompare(b.name, lang));
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{caption}</th>
          <th scope="col">{t('count')}</th>
          <th scope="col">{t('minimum')}</th>
          <th scope="col">{t('average')}</th>
          <th scope="col">{t('maximum')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ code, name, bucket }) => (
          <tr key={code} data-code={code}>
            <th scope="row">{name}</th>
            <td>{bucket.count}</td>
            <td class="money">{formatMoney(bucket.price_min, lang)}</td>
            <td class="money">{formatMoney(bucket.price_avg, lang)}</td>
            <td class="money">{formatMoney(bucket.price_max, lang)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The statistics of a search: the price summary and the number of sellers, the price histogram
 * (its chart loaded when first shown) and the breakdowns by condition and by country.
 */
export function SearchStats({ stats: { stats }, names }: { stats: StatsAnswer; names: CodeNames }) {
  const { t, lang } = useI18n();
  const histogram = useMemo(() => {
    const buckets = stats.histogram ?? [];
    return {
      x: buckets.map((b) => b.from),
      counts: [{ label: t('count'), values: buckets.map((b) => b.count), color: '#2f6db5', bars: true }],
      ranges: buckets.map((b) => `${formatMoney(b.from, lang)}–${formatMoney(b.to, lang)}`),
    };
  }, [stats, t, lang]);

  return (
    <section aria-labelledby="stats-title">
      <h2 id="stats-title">{t('stats')}</h2>
      <p data-testid="stats-summary">
        {[
          [t('minimum'), stats.price_min],
          [t('median'), stats.price_median],
          [t('average'), stats.price_avg],
          [t('maximum'), stats.price_max],
        ].map(([label, value]) => (
          <span key={label}>
            {label} <span class="money">{formatMoney(value, lang)}</span> ·{' '}
          </span>
        ))}
        {t('sellers')}: {stats.total_sellers}
      </p>
      {histogram.x.length > 0 && (
        <Suspense fallback={<p>{t('loading')}</p>}>
          <Chart
            title={t('histogram')}
            xLabel={t('priceRange')}
            xLabels={histogram.ranges}
            time={false}
            x={histogram.x}
            series={histogram.counts}
          />
        </Suspense>
      )}
      <BucketTable caption={t('byCondition')} buckets={stats.by_condition} nameOf={names.condition} />
      <BucketTable caption={t('byCountry')} buckets={stats.by_country} nameOf={names.country} />
    </section>
  );
}

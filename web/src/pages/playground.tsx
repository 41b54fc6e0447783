import { lazy, Suspense } from 'preact/compat';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, credentialHeaders, type Credential } from '../api';
import type {
  BrandsAnswer,
  ConditionsAnswer,
  CountriesAnswer,
  ModelsAnswer,
  PartsAnswer,
  SearchAnswer,
  StatsAnswer,
} from '../api-types';
import { codeLabel, useI18n } from '../i18n';
import { createdKeys } from '../session';
import { CopyButton, Field, FormError, formatMoney, refusalOf, SelectField, type Refusal } from '../ui';

const Chart = lazy(() => import('./chart'));

type Part = PartsAnswer['results'][number];
/** A price summary of one condition or country. */
type Bucket = StatsAnswer['stats']['by_country'][string];

/**
 * A public catalog list into a picker's state; a failed one leaves the picker empty. Returns what
 * drops its answer: an effect returns it, so the models of a make picked before, or the parts for
 * what was typed before, never arrive after the current ones.
 */
function loadList<A extends { results: unknown[] }>(
  path: string,
  query: Record<string, string | number>,
  set: (items: A['results']) => void,
): () => void {
  let current = true;
  api<A>('GET', path, { credential: { kind: 'none' }, query }).then(
    ({ data }) => current && set(data.results),
    () => undefined,
  );
  return () => {
    current = false;
  };
}

/** The search fields as typed; empty ones are left out of the body. */
interface Form {
  reference: string;
  text: string;
  make: string;
  model: string;
  part: string;
  condition: string;
  country: string;
  price_min: string;
  price_max: string;
  per_page: string;
}
/** The request field each form field fills (the name the API's refusals use). */
const API_FIELD: Record<keyof Form, string> = {
  reference: 'reference',
  text: 'text',
  make: 'vehicle_make',
  model: 'vehicle_model',
  part: 'part_id',
  condition: 'condition',
  country: 'country',
  price_min: 'price_min',
  price_max: 'price_max',
  per_page: 'per_page',
};
const EMPTY: Form = {
  reference: '',
  text: '',
  make: '',
  model: '',
  part: '',
  condition: '',
  country: '',
  price_min: '',
  price_max: '',
  per_page: '20',
};

function searchBody(form: Form, parts: Part[]) {
  const part = parts.find((p) => p.name === form.part);
  const body: Record<string, unknown> = {
    reference: form.reference || undefined,
    text: form.text || undefined,
    vehicle_make: form.make || undefined,
    vehicle_model: form.model || undefined,
    part_id: part?.id,
    condition: form.condition || undefined,
    country: form.country || undefined,
    price_min: form.price_min ? Number(form.price_min) : undefined,
    price_max: form.price_max ? Number(form.price_max) : undefined,
    per_page: form.per_page ? Number(form.per_page) : undefined,
  };
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The shell variable the copied curl reads a session token from (see curlOf). */
export const SESSION_TOKEN_VARIABLE = 'PSS_SESSION_TOKEN';

/**
 * The last request as a curl command. An API key is the person's own, to paste into a script; the
 * session token is not copied (pasted into a chat or a ticket it would open the whole account), the
 * command reads it from a shell variable instead.
 */
function curlOf(path: string, body: object, credential: Credential) {
  const headers =
    credential.kind === 'bearer'
      ? [`-H "Authorization: Bearer $${SESSION_TOKEN_VARIABLE}"`]
      : Object.entries(credentialHeaders(credential)).map(
          ([name, value]) => `-H ${shellQuote(`${name}: ${value}`)}`,
        );
  return [
    `curl -s -X POST ${location.origin}${path}`,
    ...headers,
    `-H 'Content-Type: application/json'`,
    `-d ${shellQuote(JSON.stringify(body))}`,
  ].join(' ');
}

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

/** A catalog picker: "any" first, then [value, label] pairs. */
function Picker(props: {
  name: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  refusal: Refusal | null;
  options: [string, string][];
}) {
  const { t } = useI18n();
  return (
    <SelectField {...props}>
      <option value="">{t('any')}</option>
      {props.options.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </SelectField>
  );
}

export function Playground() {
  const { t, lang } = useI18n();
  const [makes, setMakes] = useState<BrandsAnswer['results']>([]);
  const [models, setModels] = useState<ModelsAnswer['results']>([]);
  const [parts, setParts] = useState<Part[]>([]);
  const [conditions, setConditions] = useState<ConditionsAnswer['results']>([]);
  const [countries, setCountries] = useState<CountriesAnswer['results']>([]);
  const [form, setForm] = useState<Form>(EMPTY);
  const [credentialChoice, setCredentialChoice] = useState(createdKeys.length ? 'key:0' : 'bearer');
  const [pasted, setPasted] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  const [tokenStatus, setTokenStatus] = useState('');
  const [stats, setStats] = useState<StatsAnswer | null>(null);
  const [last, setLast] = useState<{ path: string; body: object } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof Form) => (value: string) => setForm((f) => ({ ...f, [name]: value }));
  /** What every form field takes: its API name (for refusals), its value and its setter. */
  const bind = (name: keyof Form) => ({
    name: API_FIELD[name],
    value: form[name],
    onValue: set(name),
    refusal,
  });

  const credential: Credential =
    credentialChoice === 'bearer'
      ? { kind: 'bearer' }
      : credentialChoice === 'paste'
        ? { kind: 'apiKey', key: pasted.trim() }
        : { kind: 'apiKey', key: createdKeys[Number(credentialChoice.slice(4))]?.key ?? '' };

  // The pickers: makes and models with stock (what the search filters on), conditions, countries.
  useEffect(() => {
    const drops = [
      loadList<BrandsAnswer>('/data/catalog/brands', { per_page: 500 }, setMakes),
      loadList<ConditionsAnswer>('/data/catalog/conditions', { lang }, setConditions),
      loadList<CountriesAnswer>('/data/catalog/countries', { lang, per_page: 500 }, setCountries),
    ];
    return () => drops.forEach((drop) => drop());
  }, [lang]);

  useEffect(() => {
    setModels([]);
    if (!form.make) return;
    return loadList<ModelsAnswer>(
      `/data/catalog/models/${encodeURIComponent(form.make)}`,
      { per_page: 500 },
      setModels,
    );
  }, [form.make]);

  // Part type-ahead: the catalog's names in the page's language, as the person types.
  useEffect(() => {
    if (form.part.trim().length < 2) return;
    let drop = () => {};
    const timer = setTimeout(() => {
      drop = loadList<PartsAnswer>('/data/catalog/parts', { q: form.part, lang, per_page: 10 }, setParts);
    }, 200);
    return () => {
      clearTimeout(timer);
      drop();
    };
  }, [form.part, lang]);

  const run = async <A,>(path: string, body: Record<string, unknown>) => {
    setBusy(true);
    setLast({ path, body });
    try {
      return await api<A>('POST', path, { body, credential });
    } catch (error) {
      setRefusal(refusalOf(error));
      return null;
    } finally {
      setBusy(false);
    }
  };

  const base = useMemo(() => searchBody(form, parts), [form, parts]);

  const search = async (event?: Event) => {
    event?.preventDefault();
    const answered = await run<SearchAnswer>('/data/search', base);
    if (!answered) return;
    setRefusal(null);
    setAnswer(answered.data);
    setTokenStatus(answered.headers.get('X-Search-Token-Status') ?? '');
  };

  const page = async (to: number) => {
    if (!answer) return;
    const answered = await run<SearchAnswer>('/data/search', {
      ...base,
      page: to,
      ...(answer.search_token ? { search_token: answer.search_token } : {}),
    });
    if (!answered) return;
    setRefusal(null);
    setAnswer({ ...answered.data, search_token: answered.data.search_token ?? answer.search_token });
    setTokenStatus(answered.headers.get('X-Search-Token-Status') ?? '');
  };

  const loadStats = async () => {
    const answered = await run<StatsAnswer>('/data/search/stats', base);
    if (answered) {
      setRefusal(null);
      setStats(answered.data);
    }
  };

  const fields = Object.values(API_FIELD);
  const histogram = useMemo(() => {
    const buckets = stats?.stats.histogram ?? [];
    return {
      x: buckets.map((b) => b.from),
      counts: [{ label: t('count'), values: buckets.map((b) => b.count), color: '#2f6db5', bars: true }],
      ranges: buckets.map((b) => `${formatMoney(b.from, lang)}–${formatMoney(b.to, lang)}`),
    };
  }, [stats, t, lang]);
  // Conditions and countries by their names in the page's language, as the pickers list them.
  const conditionName = (code: string) => conditions.find((c) => c.code === code)?.name ?? code;
  const countryName = (code: string) => countries.find((c) => c.code === code)?.name ?? code;

  return (
    <section>
      <h1>{t('playground')}</h1>
      <form onSubmit={search} class="grid-form">
        <SelectField
          name="credential"
          label={t('credential')}
          value={credentialChoice}
          onValue={setCredentialChoice}
          wide
        >
          <option value="bearer">{t('sessionBearer')}</option>
          {createdKeys.map((key, index) => (
            <option key={key.key} value={`key:${index}`}>
              {t('apiKey')}: {key.name} ({key.key.slice(0, 12)}…)
            </option>
          ))}
          <option value="paste">{t('pasteKey')}</option>
        </SelectField>
        {credentialChoice === 'paste' && (
          <Field name="api_key" label={t('apiKey')} autocomplete="off" value={pasted} onValue={setPasted} />
        )}
        <Field label={t('reference')} {...bind('reference')} />
        <Field label={t('text')} {...bind('text')} />
        <Picker
          label={t('make')}
          {...bind('make')}
          onValue={(v) => setForm((f) => ({ ...f, make: v, model: '' }))}
          options={makes.map((m) => [m.name, `${m.name} (${m.items})`])}
        />
        <Picker
          label={t('model')}
          {...bind('model')}
          options={models.map((m) => [m.name, `${m.name} (${m.items})`])}
        />
        <Field label={t('part')} list="parts-list" autocomplete="off" {...bind('part')} />
        <datalist id="parts-list">
          {parts.map((p) => (
            <option key={p.id} value={p.name} />
          ))}
        </datalist>
        <Picker
          label={t('condition')}
          {...bind('condition')}
          options={conditions.map((c) => [c.code, c.name])}
        />
        <Picker label={t('country')} {...bind('country')} options={countries.map((c) => [c.code, c.name])} />
        <Field label={t('priceMin')} type="number" step="0.01" min={0} {...bind('price_min')} />
        <Field label={t('priceMax')} type="number" step="0.01" min={0} {...bind('price_max')} />
        <Field label={t('perPage')} type="number" min={1} max={100} {...bind('per_page')} />
        <FormError refusal={refusal} fields={fields} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {t('search')}
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={loadStats}>
            {t('stats')}
          </button>
          {last && <CopyButton text={curlOf(last.path, last.body, credential)} label={t('copyCurl')} />}
        </div>
        {last && credential.kind === 'bearer' && (
          <p class="hint wide" data-testid="curl-session-hint">
            {t('curlSessionHint', { variable: SESSION_TOKEN_VARIABLE })}
          </p>
        )}
      </form>

      {answer && (
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
                  <td data-label={t('condition')}>{conditionName(r.condicao)}</td>
                  <td data-label={t('price')} class="money" data-testid="price">
                    {formatMoney(r.preco, lang, r.moeda)}
                  </td>
                  <td data-label={t('seller')}>{r.vendor_nome}</td>
                  <td data-label={t('country')}>{countryName(r.location_country_code)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav class="pager" aria-label={t('results')}>
            <button
              type="button"
              class="secondary"
              disabled={busy || answer.page <= 1}
              onClick={() => page(answer.page - 1)}
            >
              {t('previous')}
            </button>
            <span data-testid="page">{t('pageOf', { page: answer.page, pages: answer.total_pages })}</span>
            <button
              type="button"
              class="secondary"
              disabled={busy || answer.page >= answer.total_pages}
              onClick={() => page(answer.page + 1)}
            >
              {t('next')} {answer.search_token ? `(${t('freePage')})` : ''}
            </button>
          </nav>
        </section>
      )}

      {stats && (
        <section aria-labelledby="stats-title">
          <h2 id="stats-title">{t('stats')}</h2>
          <p data-testid="stats-summary">
            {[
              [t('minimum'), stats.stats.price_min],
              [t('median'), stats.stats.price_median],
              [t('average'), stats.stats.price_avg],
              [t('maximum'), stats.stats.price_max],
            ].map(([label, value]) => (
              <span key={label}>
                {label} <span class="money">{formatMoney(value, lang)}</span> ·{' '}
              </span>
            ))}
            {t('sellers')}: {stats.stats.total_sellers}
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
          <BucketTable caption={t('byCondition')} buckets={stats.stats.by_condition} nameOf={conditionName} />
          <BucketTable caption={t('byCountry')} buckets={stats.stats.by_country} nameOf={countryName} />
        </section>
      )}
    </section>
  );
}

import { useMemo, useState } from 'preact/hooks';
import { api, type Answer } from '../../api';
import type { SearchAnswer, StatsAnswer } from '../../api-types';
import { useI18n } from '../../i18n';
import { refusalOf, type Refusal } from '../../ui';
import { useCatalogPickers } from './catalog-pickers';
import { curlCommand } from './curl-command';
import { credentialOf, firstCredentialChoice, SearchForm } from './search-form';
import { EMPTY_FIELDS, searchBody } from './search-fields';
import { SearchResults, useSearchResults } from './search-results';
import { SearchStats } from './search-stats';

/**
 * The search playground: the form, the results and the statistics of what it asks, and the last
 * request as a curl command. The page holds what they share: the fields, the credential, and the
 * requests (one at a time, the last one kept for curl, a refusal shown in the form).
 */
export function Playground() {
  const { t } = useI18n();
  const [fields, setFields] = useState(EMPTY_FIELDS);
  const [credentialChoice, setCredentialChoice] = useState(firstCredentialChoice);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const [last, setLast] = useState<{ path: string; body: object } | null>(null);
  const [stats, setStats] = useState<StatsAnswer | null>(null);
  const catalogs = useCatalogPickers(fields.make, fields.part);
  const credential = credentialOf(credentialChoice);
  const body = useMemo(() => searchBody(fields, catalogs.parts), [fields, catalogs.parts]);

  /** A POST with the chosen credential; null when refused, the refusal then shown in the form. */
  const send = async <A,>(path: string, requestBody: Record<string, unknown>): Promise<Answer<A> | null> => {
    setBusy(true);
    setLast({ path, body: requestBody });
    try {
      const answered = await api<A>('POST', path, { body: requestBody, credential });
      setRefusal(null);
      return answered;
    } catch (error) {
      setRefusal(refusalOf(error));
      return null;
    } finally {
      setBusy(false);
    }
  };
  const results = useSearchResults((requestBody) => send<SearchAnswer>('/data/search', requestBody), body);
  const loadStats = async () => {
    const answered = await send<StatsAnswer>('/data/search/stats', body);
    if (answered) setStats(answered.data);
  };

  return (
    <section>
      <h1>{t('playground')}</h1>
      <SearchForm
        fields={fields}
        onFields={setFields}
        credential={credentialChoice}
        onCredential={setCredentialChoice}
        catalogs={catalogs}
        refusal={refusal}
        busy={busy}
        onSearch={results.search}
        onStats={loadStats}
        curl={last && curlCommand({ baseUrl: location.origin, ...last, credential })}
      />
      {results.shown && (
        <SearchResults shown={results.shown} busy={busy} onPage={results.page} names={catalogs.names} />
      )}
      {stats && <SearchStats stats={stats} names={catalogs.names} />}
    </section>
  );
}

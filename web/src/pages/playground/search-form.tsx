import type { Credential } from '../../api';
import { useI18n } from '../../i18n';
import { createdKeys } from '../../session';
import { CopyButton, Field, FormError, SelectField, type Refusal } from '../../ui';
import type { CatalogPickers } from './catalog-pickers';
import { SESSION_TOKEN_VARIABLE } from './curl-command';
import { API_FIELD, type SearchFields } from './search-fields';

/**
 * The credential the searches go with, as chosen: `bearer` (the session), `key:<index>` (a key
 * created in this tab) or `paste` (the key typed in `pasted`).
 */
export interface CredentialChoice {
  picked: string;
  pasted: string;
}

/** A key created in this tab when there is one (what the person just made it for), else the session. */
export const firstCredentialChoice = (): CredentialChoice => ({
  picked: createdKeys.length ? 'key:0' : 'bearer',
  pasted: '',
});

/** The credential chosen; never `none`: every search is paid by an account. */
export function credentialOf({ picked, pasted }: CredentialChoice): Exclude<Credential, { kind: 'none' }> {
  if (picked === 'bearer') return { kind: 'bearer' };
  if (picked === 'paste') return { kind: 'apiKey', key: pasted.trim() };
  return { kind: 'apiKey', key: createdKeys[Number(picked.slice(4))]?.key ?? '' };
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

/**
 * The playground's form: the credential, the search fields (the catalogs' pickers among them) and
 * the actions: search, statistics and, once a request was made, "copy as curl".
 */
export function SearchForm({
  fields,
  onFields,
  credential,
  onCredential,
  catalogs,
  refusal,
  busy,
  onSearch,
  onStats,
  curl,
}: {
  fields: SearchFields;
  onFields: (update: (fields: SearchFields) => SearchFields) => void;
  credential: CredentialChoice;
  onCredential: (choice: CredentialChoice) => void;
  catalogs: CatalogPickers;
  refusal: Refusal | null;
  busy: boolean;
  onSearch: () => void;
  onStats: () => void;
  /** the last request as a curl command; null before the first */
  curl: string | null;
}) {
  const { t } = useI18n();
  const { makes, models, parts, conditions, countries } = catalogs;
  /** What every search field takes: its API name (for refusals), its value and its setter. */
  const bind = (name: keyof SearchFields) => ({
    name: API_FIELD[name],
    value: fields[name],
    onValue: (value: string) => onFields((f) => ({ ...f, [name]: value })),
    refusal,
  });
  const submit = (event: Event) => {
    event.preventDefault();
    onSearch();
  };

  return (
    <form onSubmit={submit} class="grid-form">
      <SelectField
        name="credential"
        label={t('credential')}
        value={credential.picked}
        onValue={(picked) => onCredential({ ...credential, picked })}
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
      {credential.picked === 'paste' && (
        <Field
          name="api_key"
          label={t('apiKey')}
          autocomplete="off"
          value={credential.pasted}
          onValue={(pasted) => onCredential({ ...credential, pasted })}
        />
      )}
      <Field label={t('reference')} {...bind('reference')} />
      <Field label={t('text')} {...bind('text')} />
      <Picker
        label={t('make')}
        {...bind('make')}
        // a model belongs to its make: another make starts with "any" model
        onValue={(make) => onFields((f) => ({ ...f, make, model: '' }))}
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
      <FormError refusal={refusal} fields={Object.values(API_FIELD)} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {t('search')}
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={onStats}>
          {t('stats')}
        </button>
        {curl && <CopyButton text={curl} label={t('copyCurl')} />}
      </div>
      {curl && credential.picked === 'bearer' && (
        <p class="hint wide" data-testid="curl-session-hint">
          {t('curlSessionHint', { variable: SESSION_TOKEN_VARIABLE })}
        </p>
      )}
    </form>
  );
}

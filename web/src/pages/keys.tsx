import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import type { ApiKeyCreatedAnswer, ApiKeysAnswer } from '../api-types';
import { useI18n } from '../i18n';
import { createdKeys } from '../session';
import {
  CopyButton,
  Field,
  FormError,
  formatDate,
  optionalInt,
  refusalOf,
  useSubmit,
  type Refusal,
} from '../ui';

export type ApiKey = ApiKeysAnswer['api_keys'][number];

interface Limits {
  rate_limit_per_minute: string;
  rate_limit_per_hour: string;
  daily_credit_limit: string;
}

const LIMIT_FIELDS = ['rate_limit_per_minute', 'rate_limit_per_hour', 'daily_credit_limit'] as const;
const limitsOf = (key?: ApiKey): Limits => ({
  rate_limit_per_minute: key?.rate_limit_per_minute?.toString() ?? '',
  rate_limit_per_hour: key?.rate_limit_per_hour?.toString() ?? '',
  daily_credit_limit: key?.daily_credit_limit?.toString() ?? '',
});
const limitsBody = (limits: Limits) =>
  Object.fromEntries(LIMIT_FIELDS.map((name) => [name, optionalInt(limits[name])]));

function LimitFields({
  prefix,
  limits,
  setLimits,
  refusal,
}: {
  prefix: string;
  limits: Limits;
  setLimits: (limits: Limits) => void;
  refusal: Refusal | null;
}) {
  const { t } = useI18n();
  const labels = {
    rate_limit_per_minute: t('perMinute'),
    rate_limit_per_hour: t('perHour'),
    daily_credit_limit: t('dailyCredits'),
  };
  return (
    <>
      {LIMIT_FIELDS.map((name) => (
        <Field
          key={name}
          name={name}
          id={`${prefix}-${name}`}
          label={labels[name]}
          type="number"
          min={1}
          inputMode="numeric"
          value={limits[name]}
          onValue={(value) => setLimits({ ...limits, [name]: value })}
          refusal={refusal}
        />
      ))}
    </>
  );
}

function CreateKey({ onCreated }: { onCreated: () => void }) {
  const { t } = useI18n();
  const [name, setName] = useState('');
  const [limits, setLimits] = useState(limitsOf());
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const { refusal, submit } = useSubmit(async () => {
    const body = Object.fromEntries(
      Object.entries({ name, ...limitsBody(limits) }).filter(([, v]) => v !== null),
    );
    const { data } = await api<ApiKeyCreatedAnswer>('POST', '/api-keys', { body });
    const shown = { name: data.api_key.name, key: data.api_key.key };
    createdKeys.push(shown);
    setCreated(shown);
    setName('');
    setLimits(limitsOf());
    onCreated();
  });
  return (
    <section aria-labelledby="create-key">
      <h2 id="create-key">{t('create')}</h2>
      {created && (
        <div class="notice" role="status">
          <p>{t('keyShownOnce')}</p>
          <p class="key-row">
            <code data-testid="new-key">{created.key}</code> <CopyButton text={created.key} />
          </p>
        </div>
      )}
      <form onSubmit={submit} class="grid-form">
        <Field name="name" label={t('keyName')} required value={name} onValue={setName} refusal={refusal} />
        <LimitFields prefix="new" limits={limits} setLimits={setLimits} refusal={refusal} />
        <FormError refusal={refusal} fields={['name', ...LIMIT_FIELDS]} />
        <div>
          <button type="submit">{t('create')}</button>
        </div>
      </form>
    </section>
  );
}

function KeyRow({ apiKey, onChanged }: { apiKey: ApiKey; onChanged: () => void }) {
  const { t, lang } = useI18n();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // The confirmation takes the focus on its safe choice (the autofocus attribute only works when a
  // page loads); cancelling (or Escape) gives it back to the button that opened it, and a done
  // revocation leaves it on the row's actions cell, which then says the key is revoked.
  const revokeButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const actionsCell = useRef<HTMLTableCellElement>(null);
  useEffect(() => {
    if (confirming) cancelButton.current?.focus();
  }, [confirming]);
  const cancelRevocation = () => {
    setConfirming(false);
    revokeButton.current?.focus();
  };
  const [limits, setLimits] = useState(limitsOf(apiKey));
  const { refusal, submit: save } = useSubmit(async () => {
    await api('PATCH', `/api-keys/${apiKey.id}`, { body: limitsBody(limits) });
    setEditing(false);
    onChanged();
  });
  const revocation = useSubmit(async () => {
    await api('DELETE', `/api-keys/${apiKey.id}`);
    setConfirming(false);
    actionsCell.current?.focus();
    onChanged();
  });
  const limitText = [
    `${apiKey.rate_limit_per_minute ?? '—'}/min`,
    `${apiKey.rate_limit_per_hour ?? '—'}/h`,
    `${apiKey.daily_credit_limit ?? '—'} ${t('credits')}/24h`,
  ].join(' · ');
  return (
    <>
      <tr data-key-prefix={apiKey.prefix}>
        <td data-label={t('name')}>{apiKey.name}</td>
        <td data-label={t('prefix')}>
          <code>{apiKey.prefix}…</code>
        </td>
        <td data-label={t('created')}>{formatDate(apiKey.created_at, lang)}</td>
        <td data-label={t('lastUsed')}>
          {apiKey.last_used_at ? formatDate(apiKey.last_used_at, lang) : t('never')}
        </td>
        <td data-label={t('limits')}>{limitText}</td>
        <td data-label={t('actions')} ref={actionsCell} tabIndex={-1}>
          {apiKey.revoked_at ? (
            <span class="muted">
              {t('revoked')} {formatDate(apiKey.revoked_at, lang)}
            </span>
          ) : (
            <span class="actions">
              <button
                type="button"
                class="secondary"
                aria-expanded={editing}
                onClick={() => setEditing(!editing)}
              >
                {t('edit')}
              </button>
              <button type="button" class="danger" ref={revokeButton} onClick={() => setConfirming(true)}>
                {t('revoke')}
              </button>
            </span>
          )}
        </td>
      </tr>
      {confirming && (
        <tr>
          <td colSpan={6}>
            <div
              role="alertdialog"
              aria-label={t('revoke')}
              class="confirm"
              onKeyDown={(event) => event.key === 'Escape' && cancelRevocation()}
            >
              <p>{t('confirmRevoke', { name: apiKey.name })}</p>
              <FormError refusal={revocation.refusal} fields={[]} />
              <button type="button" class="danger" onClick={() => revocation.submit()}>
                {t('confirm')}
              </button>{' '}
              <button type="button" class="secondary" ref={cancelButton} onClick={cancelRevocation}>
                {t('cancel')}
              </button>
            </div>
          </td>
        </tr>
      )}
      {editing && (
        <tr>
          <td colSpan={6}>
            <form onSubmit={save} class="grid-form">
              <LimitFields prefix={apiKey.id} limits={limits} setLimits={setLimits} refusal={refusal} />
              <FormError refusal={refusal} fields={[...LIMIT_FIELDS]} />
              <div>
                <button type="submit">{t('save')}</button>{' '}
                <button type="button" class="secondary" onClick={() => setEditing(false)}>
                  {t('cancel')}
                </button>
              </div>
            </form>
          </td>
        </tr>
      )}
    </>
  );
}

export function Keys() {
  const { t } = useI18n();
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const load = () =>
    api<ApiKeysAnswer>('GET', '/api-keys')
      .then(({ data }) => setKeys(data.api_keys))
      .catch((error) => setRefusal(refusalOf(error)));
  useEffect(() => {
    void load();
  }, []);
  return (
    <section>
      <h1>{t('keys')}</h1>
      <CreateKey onCreated={load} />
      <FormError refusal={refusal} fields={[]} />
      {keys === null ? (
        <p>{t('loading')}</p>
      ) : keys.length === 0 ? (
        <p>{t('noKeys')}</p>
      ) : (
        <table class="responsive">
          <thead>
            <tr>
              <th scope="col">{t('name')}</th>
              <th scope="col">{t('prefix')}</th>
              <th scope="col">{t('created')}</th>
              <th scope="col">{t('lastUsed')}</th>
              <th scope="col">{t('limits')}</th>
              <th scope="col">{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <KeyRow key={key.id} apiKey={key} onChanged={load} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

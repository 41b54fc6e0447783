import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useBalance, type Account } from '../account';
import { useI18n } from '../i18n';
import { Field, FormError, optionalInt, refusalOf, useSubmit, type Refusal } from '../ui';
import { BalanceCards } from './balance-cards';

export function Home() {
  const { t } = useI18n();
  const { balance, refresh } = useBalance();
  const [account, setAccount] = useState<Account | null>(null);
  const [limit, setLimit] = useState('');
  const [loadRefusal, setLoadRefusal] = useState<Refusal | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    api<Account>('GET', '/account')
      .then(({ data }) => {
        setAccount(data);
        setLimit(data.account.daily_credit_limit?.toString() ?? '');
      })
      .catch((error) => setLoadRefusal(refusalOf(error)));
  }, []);

  const { refusal: saveRefusal, submit: save } = useSubmit(async () => {
    setSaved(false);
    const { data } = await api<Account>('PATCH', '/account', {
      body: { daily_credit_limit: optionalInt(limit) },
    });
    setAccount(data);
    setSaved(true);
    await refresh();
  });

  return (
    <section>
      <h1>{account?.account.name ?? account?.account.email ?? t('home')}</h1>
      <BalanceCards balance={balance} />
      <form onSubmit={save} class="inline-form">
        <Field
          name="daily_credit_limit"
          label={t('accountDailyLimit')}
          type="number"
          min={1}
          inputMode="numeric"
          hint={t('emptyNoLimit')}
          // editable once the account's current limit is shown: its arrival must not replace what was typed
          disabled={!account}
          value={limit}
          onValue={setLimit}
          refusal={saveRefusal}
        />
        <button type="submit" disabled={!account}>
          {t('save')}
        </button>
        {saved && (
          <span role="status" class="ok">
            {t('saved')}
          </span>
        )}
      </form>
      <FormError refusal={saveRefusal ?? loadRefusal} fields={['daily_credit_limit']} />
      {account && (
        <p class="muted">
          {t('plan')}: {account.plan.rate_limit_per_minute}/min · {account.plan.rate_limit_per_hour}/h ·{' '}
          {t('dailyCredits')}: {account.plan.daily_credits ?? t('noLimit')}
        </p>
      )}
    </section>
  );
}

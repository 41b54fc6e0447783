import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../api';
import type { PackagesAnswer, PurchaseAnswer } from '../api-types';
import { useBalance } from '../account';
import { useI18n } from '../i18n';
import { FormError, formatMoney, refusalOf, type Refusal } from '../ui';
import { BalanceCards } from './balance-cards';

type Package = PackagesAnswer['packages'][number];

export function Buy() {
  const { t, lang } = useI18n();
  const { query } = useLocation();
  const { balance, refresh } = useBalance();
  const [packages, setPackages] = useState<Package[]>([]);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  // Back from the provider's checkout: the balance is asked again a few times, as the provider's
  // webhook may arrive a moment after the person does.
  const returned = query.checkout !== undefined;

  useEffect(() => {
    api<PackagesAnswer>('GET', '/data/credits/packages', { credential: { kind: 'none' } }).then(
      ({ data }) => setPackages(data.packages),
      (error) => setRefusal(refusalOf(error)),
    );
    if (!returned) return;
    let tries = 0;
    const timer = setInterval(() => {
      tries += 1;
      refresh().catch(() => undefined);
      if (tries >= 5) clearInterval(timer);
    }, 2000);
    return () => clearInterval(timer);
  }, []);

  const buy = async (id: string) => {
    setBusy(true);
    try {
      const { data } = await api<PurchaseAnswer>('POST', '/data/credits/purchase', {
        body: { package_id: id },
      });
      location.assign(data.checkout_url);
    } catch (error) {
      setRefusal(refusalOf(error));
      setBusy(false);
    }
  };

  // the checkout's return address: ?checkout=success|cancelled&payment=<reference> (src/payments)
  const status = query.checkout ?? '';
  return (
    <section>
      <h1>{t('buy')}</h1>
      {returned && (
        <p class="notice" role="status" data-testid="returned">
          {t('returned', { status })}
        </p>
      )}
      <BalanceCards balance={balance} />
      <h2>{t('packages')}</h2>
      <ul class="packages">
        {packages.map((p) => (
          <li key={p.id}>
            <strong>{p.name}</strong>
            <span>
              {p.credits} {t('credits')} · <span class="money">{formatMoney(p.price_eur, lang)}</span>
            </span>
            <button type="button" disabled={busy} onClick={() => buy(p.id)}>
              {t('buyPackage', { name: p.name })}
            </button>
          </li>
        ))}
      </ul>
      <FormError refusal={refusal} fields={[]} />
    </section>
  );
}

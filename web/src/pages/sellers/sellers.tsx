import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../../api';
import type { CountriesAnswer, SellersAnswer } from '../../api-types';
import { useI18n } from '../../i18n';
import { FormError, formatDate, refusalOf, SelectField, type Refusal } from '../../ui';
import { LiveFeed } from './feed-card';
import { isFinished, type Feed, type FeedDetail, type Seller } from './feed-files';
import { FeedHistory } from './feed-history';
import { FeedUpload } from './feed-upload';
import { SellerForm, type Country } from './seller-form';

/** The feed shown under the upload form: just sent, or opened from the history. */
interface Shown {
  id: string;
  first: Feed;
  focus: boolean;
  /** opened again from the history: shown anew, taking the focus again */
  opened: number;
}

/**
 * The account's sellers: register one, pick one (kept in the address as ?seller=), change its
 * profile, load its stock from a file and follow the feed live, its history with the error
 * reports.
 */
export function Sellers() {
  const { t, lang } = useI18n();
  const { query } = useLocation();
  const [sellers, setSellers] = useState<Seller[] | null>(null);
  const [countries, setCountries] = useState<Country[]>([]);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [pickedId, setPickedId] = useState<string | null>(query.seller ?? null);
  const [registered, setRegistered] = useState<Seller | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [historyVersion, setHistoryVersion] = useState(0);
  const profileHeading = useRef<HTMLHeadingElement>(null);
  const registerAnother = useRef<HTMLDetailsElement>(null);

  const load = useCallback(
    () =>
      api<SellersAnswer>('GET', '/sellers').then(
        ({ data }) => {
          setSellers(data.sellers);
          setRefusal(null);
        },
        (error) => setRefusal(refusalOf(error)),
      ),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    let current = true;
    api<CountriesAnswer>('GET', '/data/catalog/countries', {
      credential: { kind: 'none' },
      query: { lang, per_page: 500 },
    }).then(
      ({ data }) => current && setCountries(data.results),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [lang]);

  const picked = sellers?.find((s) => s.id === pickedId) ?? sellers?.[0] ?? null;
  // The address keeps the seller, for a reload; replaced quietly, the router need not hear of it.
  const pick = (id: string) => {
    setPickedId(id);
    setShown(null);
    setRegistered(null);
    const url = new URL(location.href);
    url.searchParams.set('seller', id);
    history.replaceState(history.state, '', url);
  };

  // A seller just registered is the one shown, its profile taking the focus.
  useEffect(() => {
    if (registered && picked?.id === registered.id) profileHeading.current?.focus();
  }, [registered, picked?.id]);

  const onRegistered = async (seller: Seller) => {
    await load();
    pick(seller.id);
    setRegistered(seller);
    if (registerAnother.current) registerAnother.current.open = false;
  };
  const onFeedStatus = (feed: FeedDetail) => {
    setHistoryVersion((v) => v + 1);
    if (isFinished(feed.status)) void load(); // the seller's items count
  };

  return (
    <section>
      <h1>{t('sellers')}</h1>
      <p class="muted">{t('sellersIntro')}</p>
      <FormError refusal={refusal} fields={[]} />
      {/* there before it speaks, so that screen readers announce it */}
      <p role="status" class="ok">
        {registered ? t('registered', { name: registered.name }) : ''}
      </p>
      {sellers === null ? (
        !refusal && <p>{t('loading')}</p>
      ) : picked === null ? (
        <section aria-labelledby="register-seller">
          <h2 id="register-seller">{t('registerSeller')}</h2>
          <p>{t('noSellers')}</p>
          <SellerForm seller={null} countries={countries} idPrefix="new" onSaved={onRegistered} />
        </section>
      ) : (
        <>
          {sellers.length > 1 && (
            <SelectField name="seller" label={t('seller')} value={picked.id} onValue={pick} wide>
              {sellers.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </SelectField>
          )}
          <section aria-labelledby="seller-profile" data-testid="seller-profile">
            <h2 id="seller-profile" tabIndex={-1} ref={profileHeading}>
              {t('sellerProfile')}: {picked.name}
            </h2>
            <dl class="facts">
              <div>
                <dt>{t('itemsInStock')}</dt>
                <dd data-testid="seller-items">{picked.items}</dd>
              </div>
              <div>
                <dt>{t('registeredOn')}</dt>
                <dd>{formatDate(picked.created_at, lang)}</dd>
              </div>
            </dl>
            <SellerForm
              key={picked.id}
              seller={picked}
              countries={countries}
              idPrefix="profile"
              onSaved={() => void load()}
            />
          </section>
          <section aria-labelledby="upload-title">
            <h2 id="upload-title">{t('uploadTitle')}</h2>
            <FeedUpload
              key={picked.id}
              seller={picked}
              onSent={(feed) => {
                setShown({ id: feed.id, first: feed, focus: false, opened: Date.now() });
                setHistoryVersion((v) => v + 1);
              }}
            />
            {shown && (
              <LiveFeed
                key={`${shown.id}-${shown.opened}`}
                id={shown.id}
                first={shown.first}
                focus={shown.focus}
                onStatus={onFeedStatus}
              />
            )}
          </section>
          <FeedHistory
            key={picked.id}
            sellerId={picked.id}
            refresh={historyVersion}
            onView={(feed) => setShown({ id: feed.id, first: feed, focus: true, opened: Date.now() })}
          />
          <details class="register" ref={registerAnother}>
            <summary>{t('registerAnother')}</summary>
            <SellerForm seller={null} countries={countries} idPrefix="new" onSaved={onRegistered} />
          </details>
        </>
      )}
    </section>
  );
}

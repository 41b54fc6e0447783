import { useState } from 'preact/hooks';
import { api } from '../../api';
import type { CountriesAnswer, SellerAnswer } from '../../api-types';
import { useI18n } from '../../i18n';
import { Field, FormError, SelectField, useSubmit } from '../../ui';
import type { Seller } from './feed-files';

export type Country = CountriesAnswer['results'][number];

/**
 * A seller profile's fields: registering one (`seller` null) or changing the one given. The
 * country is picked by its name in the page's language (the catalog's list, the one the API checks
 * the code against).
 */
export function SellerForm({
  seller,
  countries,
  idPrefix,
  onSaved,
}: {
  seller: Seller | null;
  countries: Country[];
  /** the fields' ids: the page has the profile's form and the registration's */
  idPrefix: string;
  onSaved: (seller: Seller) => void;
}) {
  const { t } = useI18n();
  const [name, setName] = useState(seller?.name ?? '');
  const [country, setCountry] = useState(seller?.country ?? 'PT');
  const [city, setCity] = useState(seller?.city ?? '');
  const [saved, setSaved] = useState(false);
  const { refusal, submit } = useSubmit(async () => {
    setSaved(false);
    const body = { name, country, city: city.trim() || null };
    const { data } = seller
      ? await api<SellerAnswer>('PATCH', `/sellers/${seller.id}`, { body })
      : await api<SellerAnswer>('POST', '/sellers', { body });
    if (seller) {
      setSaved(true);
    } else {
      setName('');
      setCity('');
    }
    onSaved(data.seller);
  });
  const known = countries.some((c) => c.code === country);
  return (
    <form onSubmit={submit} class="grid-form top">
      <Field
        id={`${idPrefix}-name`}
        name="name"
        label={t('sellerName')}
        hint={t('sellerNameHint')}
        autocomplete="organization"
        required
        value={name}
        onValue={setName}
        refusal={refusal}
      />
      <SelectField
        id={`${idPrefix}-country`}
        name="country"
        label={t('country')}
        hint={t('sellerCountryHint')}
        value={country}
        onValue={setCountry}
        refusal={refusal}
      >
        {!known && <option value={country}>{country}</option>}
        {countries.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <Field
        id={`${idPrefix}-city`}
        name="city"
        label={t('city')}
        autocomplete="address-level2"
        value={city}
        onValue={setCity}
        refusal={refusal}
      />
      <FormError refusal={refusal} fields={['name', 'country', 'city']} />
      <div class="actions">
        <button type="submit">{seller ? t('save') : t('registerButton')}</button>
        {saved && (
          <span role="status" class="ok">
            {t('saved')}
          </span>
        )}
      </div>
    </form>
  );
}

import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import { LANGUAGES, type Labels, type Lang } from './data/languages.js';

const require = createRequire(import.meta.url);
for (const lang of LANGUAGES) {
  countries.registerLocale(require(`i18n-iso-countries/langs/${lang}.json`) as countries.LocaleData);
}

export interface Country {
  code: string;
  name: Labels;
}

/** All ISO 3166-1 countries (alpha-2 code) with their names in the six catalog languages. */
export const COUNTRIES: Country[] = Object.keys(countries.getAlpha2Codes())
  .sort()
  .map((code) => ({
    code,
    name: Object.fromEntries(
      LANGUAGES.map((lang: Lang) => [lang, countries.getName(code, lang, { select: 'official' }) ?? code]),
    ) as Labels,
  }));

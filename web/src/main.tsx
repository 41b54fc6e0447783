import { render, type ComponentType } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ErrorBoundary, lazy, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { api, setSessionExpiredHandler } from './api';
import { initialLang, LangContext, translator, useI18n, type Lang } from './i18n';
import { session } from './session';
import { Home } from './pages/home';
import { Keys } from './pages/keys';
import { Login, Register } from './pages/login';
import './styles.css';

// The heavier pages (uPlot, the catalogs) load when first opened.
const Usage = lazy(() => import('./pages/usage').then((m) => m.Usage));
const Playground = lazy(() => import('./pages/playground/playground').then((m) => m.Playground));
const Buy = lazy(() => import('./pages/buy').then((m) => m.Buy));
const Sellers = lazy(() => import('./pages/sellers/sellers').then((m) => m.Sellers));

export const BASE = '/dashboard';

/** A page that needs the session: without one, the login, then back here. */
function Private({ page: Page }: { page: ComponentType }) {
  const { url, route } = useLocation();
  const signedIn = session.token !== null;
  useEffect(() => {
    if (!signedIn) route(`${BASE}/login?next=${encodeURIComponent(url)}`, true);
  }, [signedIn, url]);
  return signedIn ? <Page /> : null;
}

const KeysPage = () => <Private page={Keys} />;
const UsagePage = () => <Private page={Usage} />;
const PlaygroundPage = () => <Private page={Playground} />;
const BuyPage = () => <Private page={Buy} />;
const SellersPage = () => <Private page={Sellers} />;
const HomePage = () => <Private page={Home} />;

function Nav() {
  const { t, lang, setLang } = useI18n();
  const { url, route } = useLocation();
  const logout = async () => {
    await api('POST', '/auth/logout').catch(() => undefined);
    session.clear();
    route(`${BASE}/login`);
  };
  const links: [string, Parameters<typeof t>[0]][] = [
    ['', 'home'],
    ['/keys', 'keys'],
    ['/usage', 'usage'],
    ['/search', 'playground'],
    ['/credits', 'buy'],
    ['/sellers', 'sellers'],
  ];
  const path = url.split('?')[0];
  return (
    <header>
      <a class="skip" href="#main">
        {t('skip')}
      </a>
      <nav aria-label={t('appName')}>
        <strong>{t('appName')}</strong>
        {session.token &&
          links.map(([href, key]) => (
            <a key={href} href={BASE + href} aria-current={path === BASE + href ? 'page' : undefined}>
              {t(key)}
            </a>
          ))}
        <a href="/docs" target="_blank" rel="noopener">
          {t('docs')}
        </a>
        <label class="lang">
          <span>{t('language')}</span>
          <select value={lang} onChange={(event) => setLang(event.currentTarget.value as Lang)}>
            <option value="pt">Português</option>
            <option value="en">English</option>
          </select>
        </label>
        {session.token && (
          <button type="button" class="secondary" onClick={logout}>
            {t('logout')}
          </button>
        )}
      </nav>
    </header>
  );
}

/** A 401 on a Bearer request: back to the login, which returns here afterwards. */
function ExpiredSessionRedirect() {
  const { route } = useLocation();
  useEffect(() => {
    setSessionExpiredHandler(() => {
      const here = location.pathname + location.search;
      route(`${BASE}/login?expired=1&next=${encodeURIComponent(here)}`);
    });
  }, []);
  return null;
}

function App() {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const value = useMemo(
    () => ({
      lang,
      t: translator(lang),
      setLang: (next: Lang) => {
        localStorage.setItem('pss.lang', next);
        document.documentElement.lang = next;
        setLangState(next);
      },
    }),
    [lang],
  );
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return (
    <LangContext.Provider value={value}>
      <LocationProvider scope={BASE}>
        <ExpiredSessionRedirect />
        <Nav />
        <main id="main">
          <ErrorBoundary>
            <Router>
              <Route path={`${BASE}/login`} component={Login} />
              <Route path={`${BASE}/register`} component={Register} />
              <Route path={`${BASE}/keys`} component={KeysPage} />
              <Route path={`${BASE}/usage`} component={UsagePage} />
              <Route path={`${BASE}/search`} component={PlaygroundPage} />
              <Route path={`${BASE}/credits`} component={BuyPage} />
              <Route path={`${BASE}/sellers`} component={SellersPage} />
              <Route default component={HomePage} />
            </Router>
          </ErrorBoundary>
        </main>
      </LocationProvider>
    </LangContext.Provider>
  );
}

render(<App />, document.getElementById('app')!);

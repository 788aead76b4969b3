import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import 'primereact/resources/themes/lara-light-green/theme.css';
import 'primeicons/primeicons.css';
import './styles/base.css';
import './styles/auth.css';
import './styles/shell.css';
import './styles/screens.css';
import type { PublicConfig } from './config/types';
import { App } from './app/App';
import { bootFailureTexts } from './app/bootFailure';
import { SignedInShell, SignInScreen } from './app/entryScreens';
import { lazyWithPreload } from './app/lazyWithPreload';
import { createServices, ServicesContext } from './app/services';
import { local } from './app/storage';
import { AuthProvider } from './auth/AuthProvider';
import { createI18n } from './i18n/i18n';
import { initialLanguage } from './i18n/language';
import { framedFeatureId } from './guest/featureHost';
import { resolveFrame } from '../../engine/src/index';

const FeatureHost = lazyWithPreload(() => import('./guest/FeatureHost'));

declare global {
  interface Window {
    /** Started by public/prefetch.js while the modules load. */
    __tmPublicConfig?: Promise<PublicConfig>;
  }
}

/** The screen a visitor needs first loads alongside the configuration: the shell when a session is stored. */
function hasSession(): boolean {
  try {
    return Object.keys(localStorage).some((k) => k.endsWith('.session'));
  } catch {
    return false;
  }
}
const framed = window.self !== window.top;
// In the frame, the feature host loads with the configuration: it then renders at once rather than suspending.
const firstScreen = framed ? FeatureHost.preload() : hasSession() ? SignedInShell.preload() : SignInScreen.preload();

async function fetchPublicConfig(): Promise<PublicConfig> {
  const res = await fetch('/api/config/public', { headers: { accept: 'application/json', platform: 'desktop' } });
  if (!res.ok) throw new Error(`GET /api/config/public answered ${res.status}`);
  return res.json() as Promise<PublicConfig>;
}

function BootFailure({ message }: { message: string }) {
  const texts = bootFailureTexts(navigator.languages ?? []);
  return (
    <main className="tm-boot-failure" lang={texts.lang}>
      <h1>{texts.title}</h1>
      <p>{message}</p>
      <button type="button" onClick={() => window.location.reload()}>{texts.retry}</button>
    </main>
  );
}

async function boot(): Promise<void> {
  const root = createRoot(document.getElementById('root')!);
  let config: PublicConfig;
  try {
    [config] = await Promise.all([window.__tmPublicConfig ?? fetchPublicConfig(), firstScreen.catch(() => undefined)]);
  } catch (e) {
    root.render(<BootFailure message={(e as Error).message} />);
    return;
  }
  const services = createServices(config);
  const { languages } = config.deployment.settings;
  const lang = initialLanguage({
    chosen: local.get(services.keys.language),
    deploymentDefault: languages.default,
    browser: navigator.languages,
    offered: languages.menu,
  });
  const i18n = await createI18n(config.i18n, lang);
  document.documentElement.lang = lang;
  const featureId = framedFeatureId(window.location, framed, resolveFrame(config.deployment.settings.frame, window.location.origin));
  if (featureId) {
    root.render(
      <I18nextProvider i18n={i18n}>
        <Suspense fallback={null}><FeatureHost featureId={featureId} services={services} /></Suspense>
      </I18nextProvider>,
    );
    return;
  }
  root.render(
    <StrictMode>
      <ServicesContext.Provider value={services}>
        <I18nextProvider i18n={i18n}>
          <BrowserRouter>
            <AuthProvider>
              <App />
            </AuthProvider>
          </BrowserRouter>
        </I18nextProvider>
      </ServicesContext.Provider>
    </StrictMode>,
  );
}

void boot();

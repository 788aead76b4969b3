import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ERRORS } from '../../../engine/src/index';
import { SignedInShell } from '../app/entryScreens';
import { useServices } from '../app/services';
import { local } from '../app/storage';
import { AccountExpiredError, useAuth } from '../auth/auth';
import { accountExpired } from '../auth/AuthProvider';
import { signInErrorText } from '../auth/signInError';
import { browserPopupDeps, signInWithPopup } from '../auth/providerPopup';
import { AuthLayout } from '../components/AuthLayout';
import { LiteButton, LiteInput, LiteSpinner } from '../components/Lite';
import { ProviderButtons } from './ProviderButtons';

const preloadShell = () => SignedInShell.preload();

/** SPEC 2.2: the sign-in screen. */
export default function SignIn() {
  const { t } = useTranslation();
  const { config, keys, api } = useServices();
  const auth = useAuth();
  const settings = config.deployment.settings;
  const [email, setEmail] = useState(() => local.get(keys.lastEmail) ?? '');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const [spinner, setSpinner] = useState(settings.timings.signInSpinnerMs > 0);
  const id = useId();

  useEffect(() => {
    const timer = setTimeout(() => setSpinner(false), settings.timings.signInSpinnerMs);
    return () => clearTimeout(timer);
  }, [settings.timings.signInSpinnerMs]);

  useEffect(() => {
    let live = true;
    void accountExpired(api, Boolean(settings.signIn.accountExpiry)).then((x) => {
      if (x && live) {
        setExpired(true);
        void auth.signOut();
      }
    });
    return () => {
      live = false;
    };
    // Checked once, when the screen opens.
  }, []);

  const busy = auth.status === 'signingIn';
  const canSubmit = email.trim() !== '' && password !== '' && !busy;

  const fail = (e: unknown) => {
    if (e instanceof AccountExpiredError) setExpired(true);
    else setError(signInErrorText(e, t));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSubmit) return;
    setError(null);
    void preloadShell();
    try {
      await auth.signIn(email.trim(), password);
    } catch (err) {
      fail(err);
    }
  };

  const withProvider = async (providerId: string) => {
    setError(null);
    const r = await signInWithPopup(providerId, browserPopupDeps());
    if (!r.ok) {
      setError(r.message ?? t(ERRORS.SIGN_IN_POPUP_CLOSED.key));
      return;
    }
    void preloadShell();
    try {
      await auth.signInWithToken(r.token);
    } catch (err) {
      fail(err);
    }
  };

  const overlay = spinner ? (
    <div className="tm-overlay" role="status" aria-label={t('shell.loading')}>
      <LiteSpinner />
    </div>
  ) : null;

  return (
    <AuthLayout overlay={overlay}>
      <h1 className="tm-auth__title">{t('signIn.welcome')}</h1>
      <p className="tm-auth__subtitle">{t('signIn.prompt')}</p>
      <div className="tm-error-area" role="alert" aria-live="assertive" data-testid="sign-in-error">
        {(expired || error) && (
          <div className="tm-inline-error">
            <i className="pi pi-exclamation-circle" aria-hidden="true" />
            <span>{expired ? t(ERRORS.ACCOUNT_EXPIRED.key) : error}</span>
          </div>
        )}
      </div>
      {!expired && (
        <>
          <form className="tm-form" onSubmit={submit} noValidate>
            <div className="tm-field">
              <label htmlFor={`${id}-email`}>{t('signIn.email')}</label>
              <LiteInput
                id={`${id}-email`} name="email" type="email" autoComplete="username" value={email}
                placeholder={t('signIn.email.placeholder')} onChange={(e) => setEmail(e.target.value)} disabled={busy}
                autoFocus={!email}
              />
            </div>
            <div className="tm-field">
              <div className="tm-field__row">
                <label htmlFor={`${id}-password`}>{t('signIn.password')}</label>
                <Link to="/requestPasswordReset" className="tm-link tm-link--small">{t('signIn.forgotPassword')}</Link>
              </div>
              <span className="tm-password">
                <LiteInput
                  id={`${id}-password`} name="password" type={showPassword ? 'text' : 'password'} autoComplete="current-password"
                  value={password} onChange={(e) => setPassword(e.target.value)} disabled={busy} autoFocus={Boolean(email)}
                />
                <button
                  type="button" className="tm-password__toggle" onClick={() => setShowPassword((v) => !v)}
                  aria-label={t(showPassword ? 'signIn.hidePassword' : 'signIn.showPassword')} aria-pressed={showPassword}
                >
                  <i className={showPassword ? 'pi pi-eye-slash' : 'pi pi-eye'} aria-hidden="true" />
                </button>
              </span>
            </div>
            <LiteButton
              type="submit" className="tm-form__submit" label={busy ? t('signIn.signingIn') : t('signIn.login')}
              loading={busy} disabled={!canSubmit}
            />
          </form>
          <ProviderButtons providers={settings.signIn.providers} disabled={busy} onChoose={(p) => void withProvider(p)} />
        </>
      )}
      <p className="tm-auth__legal">
        <Link to="/terms-and-conditions" className="tm-link tm-link--muted">{t('terms.title')}</Link>
      </p>
    </AuthLayout>
  );
}

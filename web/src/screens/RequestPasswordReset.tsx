import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { InputText } from 'primereact/inputtext';
import { Button } from 'primereact/button';
import { useServices } from '../app/services';
import { local } from '../app/storage';
import { AuthLayout } from '../components/AuthLayout';
import { ErrorArea, InlineSuccess, useAuthSubmit } from '../components/AuthForm';

/** Asks for a reset link by e-mail; the answer never says whether the account exists. */
export default function RequestPasswordReset() {
  const { t } = useTranslation();
  const { api, keys } = useServices();
  const [email, setEmail] = useState(() => local.get(keys.lastEmail) ?? '');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { error, busy, run } = useAuthSubmit();
  const id = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = email.trim();
    if (!value || busy) return;
    await run(async () => {
      await api.post('/api/auth/request-password-reset', { email: value });
      setSentTo(value);
    });
  };

  return (
    <AuthLayout>
      <h1 className="tm-auth__title">{t('requestPasswordReset.title')}</h1>
      <p className="tm-auth__subtitle">{t('requestPasswordReset.prompt')}</p>
      <ErrorArea error={error} />
      {sentTo ? (
        <InlineSuccess icon="pi-envelope" testId="reset-sent">{t('requestPasswordReset.sent', { email: sentTo })}</InlineSuccess>
      ) : (
        <form className="tm-form" onSubmit={submit} noValidate>
          <div className="tm-field">
            <label htmlFor={`${id}-email`}>{t('signIn.email')}</label>
            <InputText
              id={`${id}-email`} type="email" autoComplete="username" value={email} autoFocus
              placeholder={t('signIn.email.placeholder')} onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <Button type="submit" className="tm-form__submit" label={t('requestPasswordReset.submit')} loading={busy} disabled={!email.trim() || busy} />
        </form>
      )}
      <p className="tm-auth__back">
        <Link to="/" className="tm-link"><i className="pi pi-arrow-left" aria-hidden="true" /> {t('requestPasswordReset.backToSignIn')}</Link>
      </p>
    </AuthLayout>
  );
}

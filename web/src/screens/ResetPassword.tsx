import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { InputText } from 'primereact/inputtext';
import { Button } from 'primereact/button';
import { useServices } from '../app/services';
import { AuthLayout } from '../components/AuthLayout';
import { ErrorArea, InlineSuccess, useAuthSubmit } from '../components/AuthForm';
import { PasswordStrength } from '../components/PasswordStrength';

/** Sets a new password with the token of the mailed link (`/resetPassword?token=…`). */
export default function ResetPassword() {
  const { t } = useTranslation();
  const { api, config } = useServices();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { error, busy, run } = useAuthSubmit(token ? null : t('resetPassword.invalidLink'));
  const [done, setDone] = useState(false);
  const id = useId();
  const mismatch = confirm !== '' && confirm !== password;
  const canSubmit = Boolean(token) && password !== '' && password === confirm && !busy;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSubmit) return;
    await run(async () => {
      await api.post('/api/auth/reset-password', { token, password });
      setDone(true);
    });
  };

  return (
    <AuthLayout>
      <h1 className="tm-auth__title">{t('resetPassword.title')}</h1>
      <ErrorArea error={error} />
      {done ? (
        <InlineSuccess icon="pi-check-circle" testId="reset-done">{t('resetPassword.done')}</InlineSuccess>
      ) : (
        <form className="tm-form" onSubmit={submit} noValidate>
          <div className="tm-field">
            <label htmlFor={`${id}-new`}>{t('resetPassword.newPassword')}</label>
            <InputText id={`${id}-new`} type="password" autoComplete="new-password" value={password} autoFocus
              onChange={(e) => setPassword(e.target.value)} aria-describedby={`${id}-strength`} />
            <div id={`${id}-strength`}>
              <PasswordStrength password={password} thresholds={config.deployment.settings.passwordStrength} />
            </div>
          </div>
          <div className="tm-field">
            <label htmlFor={`${id}-confirm`}>{t('resetPassword.confirmPassword')}</label>
            <InputText id={`${id}-confirm`} type="password" autoComplete="new-password" value={confirm}
              onChange={(e) => setConfirm(e.target.value)} invalid={mismatch} aria-invalid={mismatch} />
            {mismatch && <small className="tm-field__error">{t('resetPassword.mismatch')}</small>}
          </div>
          <Button type="submit" className="tm-form__submit" label={t('resetPassword.submit')} loading={busy} disabled={!canSubmit} />
        </form>
      )}
      <p className="tm-auth__back">
        <Link to="/" className="tm-link"><i className="pi pi-arrow-left" aria-hidden="true" /> {t('requestPasswordReset.backToSignIn')}</Link>
      </p>
    </AuthLayout>
  );
}

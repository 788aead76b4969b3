import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { InputText } from 'primereact/inputtext';
import { Button } from 'primereact/button';
import { useServices } from '../app/services';
import { errorText } from '../api/errorText';
import { AuthLayout } from '../components/AuthLayout';
import { PasswordStrength } from '../components/PasswordStrength';

/** Sets a new password with the token of the mailed link (`/resetPassword?token=…`). */
export default function ResetPassword() {
  const { t } = useTranslation();
  const { api, config } = useServices();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(token ? null : t('resetPassword.invalidLink'));
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const mismatch = confirm !== '' && confirm !== password;
  const canSubmit = Boolean(token) && password !== '' && password === confirm && !busy;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    setError(null);
    try {
      await api.post('/api/auth/reset-password', { token, password });
      setDone(true);
    } catch (err) {
      setError(errorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout>
      <h1 className="tm-auth__title">{t('resetPassword.title')}</h1>
      <div className="tm-error-area" role="alert" aria-live="assertive">
        {error && <div className="tm-inline-error"><i className="pi pi-exclamation-circle" aria-hidden="true" /><span>{error}</span></div>}
      </div>
      {done ? (
        <div className="tm-inline-success" role="status" data-testid="reset-done">
          <i className="pi pi-check-circle" aria-hidden="true" />
          <span>{t('resetPassword.done')}</span>
        </div>
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

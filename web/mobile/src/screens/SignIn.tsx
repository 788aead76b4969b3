import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useMobile } from '../services';
import { LanguageSelect } from './LanguageSelect';

export function SignIn() {
  const m = useMobile();
  const { t } = useTranslation();
  const [email, setEmail] = useState(m.session?.email ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await m.signIn(email.trim(), password);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  return (
    <form className="card stack" onSubmit={(e) => void submit(e)} aria-labelledby="signin-heading">
      <h2 id="signin-heading">{t('signIn.heading')}</h2>
      <p>{t('signIn.text')}</p>
      <label>{t('signIn.email')}
        <input name="email" type="email" autoComplete="username" inputMode="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>{t('signIn.password')}
        <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      {!m.online ? <p className="muted" role="status">{t('signIn.offline')}</p> : null}
      {error ? <p className="error" role="alert">{error}</p> : null}
      <button type="submit" className="btn primary" disabled={busy || !email.trim() || !password}>{t('signIn.submit')}</button>
      <LanguageSelect />
    </form>
  );
}

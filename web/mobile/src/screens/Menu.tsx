import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../router';
import { useMobile } from '../services';
import type { MobileApp } from '../types';
import { LanguageSelect } from './LanguageSelect';

const MB = 1024 * 1024;

/** Who is signed in, language, warehouse group, the device's storage, the terms accepted, sign-out. */
export function Menu({ app }: { app: MobileApp }) {
  const m = useMobile();
  const { t } = useTranslation();
  const [groups, setGroups] = useState<string[]>(m.group ? [m.group] : []);
  useEffect(() => {
    void m.checkStorage();
    const key = 'u:groups';
    (m.online ? m.api.groups().then((g) => m.cache.set(key, g)) : m.cache.get<string[]>(key))
      .then((c) => c && setGroups(c.data), () => m.cache.get<string[]>(key).then((c) => c && setGroups(c.data)));
  }, [m]);
  const signOut = async () => {
    const count = m.unsynced.length;
    if (count && !window.confirm(t('menu.confirmSignOut', { count }))) return;
    await m.signOut();
    navigate({ name: 'home' });
  };
  const { usage, quota, persisted } = m.storage;
  return (
    <section className="stack" aria-labelledby="menu-heading">
      <h2 id="menu-heading">{t('menu.heading')}</h2>
      <p>{t('menu.signedInAs', { email: m.session?.email ?? '' })}</p>
      <div className="card stack">
        <LanguageSelect />
        <label>{t('menu.warehouse')}
          <select name="warehouse" value={m.group ?? ''} onChange={(e) => m.setGroup(e.target.value || null)}>
            <option value="">{t('menu.noWarehouse')}</option>
            {groups.map((g) => <option key={g} value={g}>{g}</option>)}
          </select>
        </label>
      </div>
      <div className="card stack" data-testid="storage">
        <h3>{t('menu.storage')}</h3>
        <p>{persisted ? t('menu.persisted') : t('menu.notPersisted')}</p>
        {usage !== null && quota ? <p>{t('menu.usage', { used: (usage / MB).toFixed(1), quota: Math.round(quota / MB) })}</p> : null}
      </div>
      <p className="muted">{t('menu.terms', { version: app.termsAccepted ?? app.termsVersion })}</p>
      <button type="button" className="btn danger" data-testid="sign-out" onClick={() => void signOut()}>{t('menu.signOut')}</button>
    </section>
  );
}

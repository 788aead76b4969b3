import { useTranslation } from 'react-i18next';
import { localize } from '../../../../engine/src/index';
import { ICONS } from '../icons';
import { navigate } from '../router';
import { useMobile } from '../services';
import type { MobileApp } from '../types';

/** The features the user holds (the server sends no others), each opening the generic feature screen. */
export function Home({ app }: { app: MobileApp }) {
  const m = useMobile();
  const { t } = useTranslation();
  const mine = m.actions.filter((a) => a.user === m.user);
  const rejected = mine.filter((a) => a.status === 'rejected').length;
  return (
    <section aria-labelledby="home-heading">
      <h2 id="home-heading">{t('home.heading')}</h2>
      {rejected ? (
        <button type="button" className="banner danger block" onClick={() => navigate({ name: 'sync' })}>{t('home.rejected', { count: rejected })}</button>
      ) : null}
      {app.features.length === 0 ? <p>{t('home.none')}</p> : (
        <nav aria-label={t('home.heading')}>
          <ul className="tiles" data-testid="feature-list">
            {app.features.map((f) => (
              <li key={f.id}>
                <a className="tile" href={`/m/f/${encodeURIComponent(f.id)}`} data-testid={`feature-${f.id}`} data-key={f.key}
                  onClick={(e) => { e.preventDefault(); navigate({ name: 'feature', id: f.id }); }}>
                  <span className="tile-icon" aria-hidden="true">{ICONS[f.icon] ?? '•'}</span>
                  <span className="tile-label">{localize(f.label, m.lang)}</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </section>
  );
}

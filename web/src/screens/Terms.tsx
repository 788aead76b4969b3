import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/services';
import { useAuth } from '../auth/auth';
import { Brand } from '../components/Brand';
import { DOCUMENTS } from './terms/documents';

/** SPEC 2.6: terms and conditions, general conditions and privacy policy (English only). */
export default function Terms() {
  const { t } = useTranslation();
  const { config } = useServices();
  const { status } = useAuth();
  const [current, setCurrent] = useState(0);
  const doc = DOCUMENTS[current];
  const body = (
    <section className="tm-page tm-terms" data-testid="terms">
      <header className="tm-page__header">
        <h1 className="tm-page__title"><i className="pi pi-file" aria-hidden="true" />{t('terms.title')}</h1>
        <span className="tm-terms__version">{t('terms.version', { version: config.deployment.settings.terms.requiredVersion })}</span>
      </header>
      <p className="tm-terms__note"><i className="pi pi-info-circle" aria-hidden="true" /> {t('terms.englishOnly')}</p>
      <div className="tm-tabs" role="tablist" aria-label={t('terms.title')}>
        {DOCUMENTS.map((d, i) => (
          <button
            key={d.id} type="button" role="tab" id={`tm-tab-${d.id}`} aria-selected={i === current}
            aria-controls={`tm-panel-${d.id}`} className={`tm-tabs__tab${i === current ? ' is-active' : ''}`}
            onClick={() => setCurrent(i)}
          >
            {t(d.titleKey)}
          </button>
        ))}
      </div>
      <article className="tm-terms__doc" role="tabpanel" id={`tm-panel-${doc.id}`} aria-labelledby={`tm-tab-${doc.id}`} lang="en">
        <h2>{t(doc.titleKey)}</h2>
        <p className="tm-terms__updated">Last updated {doc.updated}</p>
        {doc.sections.map((s) => (
          <section key={s.heading}>
            <h3>{s.heading}</h3>
            {s.paragraphs.map((p) => <p key={p.slice(0, 40)}>{p}</p>)}
          </section>
        ))}
      </article>
    </section>
  );
  if (status === 'signedIn') return body;
  return (
    <div className="tm-standalone">
      <header className="tm-standalone__header"><a href="/" className="tm-standalone__home"><Brand logo={config.deployment.settings.logo} /></a></header>
      <main>{body}</main>
    </div>
  );
}

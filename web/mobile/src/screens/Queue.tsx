import { useTranslation } from 'react-i18next';
import { localize } from '../../../../engine/src/index';
import { useMobile } from '../services';
import type { MobileApp, QueuedAction } from '../types';

/** The device's actions, newest first: pending, applied, or rejected with the server's reason and what to do. */
export function Queue({ app }: { app: MobileApp }) {
  const m = useMobile();
  const { t } = useTranslation();
  const mine = m.actions.filter((a) => a.user === m.user).reverse();
  const pending = mine.filter((a) => a.status === 'pending').length;
  return (
    <section className="stack" aria-labelledby="queue-heading">
      <h2 id="queue-heading">{t('queue.heading')}</h2>
      <div className="row">
        <p className="grow" data-testid="pending-count">{t('home.toSend', { count: pending })}</p>
        <button type="button" className="btn primary" disabled={!pending || !m.online || m.sync.running} onClick={() => void m.syncNow()}>
          {m.sync.running ? t('queue.syncing') : t('queue.syncNow')}
        </button>
      </div>
      {m.sync.error && pending ? <p className="error" role="status">{t('queue.failed', { message: m.sync.error })}</p> : null}
      {mine.length === 0 ? <p className="muted">{t('queue.empty')}</p> : (
        <ul className="queue" data-testid="queue-list">
          {mine.map((a) => <Item key={a.seq} action={a} app={app} />)}
        </ul>
      )}
    </section>
  );
}

function Item({ action: a, app }: { action: QueuedAction; app: MobileApp }) {
  const m = useMobile();
  const { t } = useTranslation();
  const feature = app.features.find((f) => f.id === a.feature);
  const what = a.kind === 'create' ? t('queue.create') : localize(feature?.transitions[a.transition!]?.label, m.lang) || a.transition;
  return (
    <li className={`queue-item ${a.status}`} data-testid={`queue-item-${a.seq}`} data-status={a.status} aria-label={`${what} ${a.title ?? ''}: ${t(`queue.status.${a.status}`)}`}>
      <div className="row">
        <strong className="grow">{what}{a.title ? ` · ${a.title}` : ''}</strong>
        <span className={`pill ${a.status}`}>{t(`queue.status.${a.status}`)}</span>
      </div>
      <p className="muted">
        {feature ? localize(feature.label, m.lang) : a.feature} · #{a.seq} · {new Date(a.at).toLocaleString(m.lang)}{a.offline ? ` · ${t('queue.offline')}` : ''}
      </p>
      {a.status === 'rejected' && a.error ? (
        <div role="alert">
          <p>{t('queue.reason', { message: a.error.message })}</p>
          {a.error.hint ? <p>{t('queue.hint', { hint: a.error.hint })}</p> : null}
        </div>
      ) : null}
      {a.status === 'rejected' ? (
        <button type="button" className="btn small" onClick={() => void m.queue.dismiss(a.seq)}>{t('queue.dismiss')}</button>
      ) : null}
    </li>
  );
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WarehouseGroup } from '../../../engine/src/index';
import { isLang } from '../i18n/language';

/**
 * The stand-in for an external feature whose bundle is not deployed here: it speaks the
 * guest side of the frame protocol (SPEC 7) and says the screen is not available yet.
 */
export default function FeatureHost({ featureId }: { featureId: string }) {
  const { t, i18n } = useTranslation();
  const [warehouse, setWarehouse] = useState<WarehouseGroup | null>(null);

  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      // Only the embedding shell talks to it; the shell may be on another name of this host (localhost).
      if (e.source !== window.parent) return;
      const d = e.data as { type?: string; payload?: { warehouse?: WarehouseGroup | null; language?: unknown } } | null;
      if (d?.type === 'parentFrameData') setWarehouse(d.payload?.warehouse ?? null);
      if (d?.type === 'languagePref' && isLang(d.payload?.language)) void i18n.changeLanguage(d.payload.language);
    };
    window.addEventListener('message', onMessage);
    // Nothing secret is sent; the shell checks this frame's origin against its own list.
    window.parent.postMessage({ type: 'guestIsReady' }, '*');
    window.parent.postMessage({ type: 'requestLanguagePref' }, '*');
    return () => window.removeEventListener('message', onMessage);
  }, [i18n]);

  return (
    <main className="tm-guest">
      <div className="tm-empty tm-empty--inline">
        <div className="tm-empty__icon" aria-hidden="true"><i className="pi pi-objects-column" /></div>
        <h1 className="tm-empty__title">{t('screen.placeholder.title')}</h1>
        <p className="tm-empty__text">{t('screen.placeholder.message')}</p>
        <p className="tm-guest__meta">
          <code>{featureId.replace(/\./g, '/')}</code>
          {warehouse && <span><i className="pi pi-warehouse" aria-hidden="true" /> {warehouse.name}</span>}
        </p>
      </div>
    </main>
  );
}

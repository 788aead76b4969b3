import { lazy, Suspense, useCallback, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { parseScan } from './gs1';
import { hasNfc, readTag } from './nfc';

const CameraScanner = lazy(() => import('./CameraScanner'));

/** The camera reader, loaded only when first opened (it and its wasm stay out of the first load). */
export function CameraReader({ onCode, onClose }: { onCode: (raw: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<p role="status">{t('app.loading')}</p>}>
      <CameraScanner onCode={onCode} onClose={onClose} />
    </Suspense>
  );
}

export type ScanTarget = { serial: string } | { nfc: string };

/** Waits for one NFC tag: the IBC serial its text or URL record carries, else the tag's own serial. */
export async function readTarget(signal: AbortSignal): Promise<ScanTarget> {
  const read = await readTag(signal);
  const fromText = read.text ? parseScan(read.text) : null;
  return fromText ? { serial: fromText.serial } : { nfc: read.tag };
}

/**
 * Finding an IBC: typing its serial always works; Web NFC reads its tag where the browser has
 * it; otherwise (or as well) the camera reads its QR or GS1 DataMatrix code.
 */
export function ScanPanel({ onScan, busy }: { onScan: (target: ScanTarget) => void; busy: boolean }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [camera, setCamera] = useState(false);
  const [nfc, setNfc] = useState<AbortController | null>(null);
  const [error, setError] = useState<string | null>(null);
  const nfcRef = useRef(nfc);
  nfcRef.current = nfc;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = parseScan(typed);
    if (r) onScan({ serial: r.serial });
  };
  const onCode = useCallback((raw: string) => {
    setCamera(false);
    const r = parseScan(raw);
    if (r) {
      setTyped(r.serial);
      onScan({ serial: r.serial });
    }
  }, [onScan]);
  const startNfc = async () => {
    nfcRef.current?.abort();
    const ctrl = new AbortController();
    setNfc(ctrl);
    setError(null);
    try {
      onScan(await readTarget(ctrl.signal));
    } catch (e) {
      if ((e as Error).name !== 'AbortError') setError(t('feature.nfcFailed', { message: (e as Error).message }));
    } finally {
      ctrl.abort();
      setNfc(null);
    }
  };
  return (
    <section className="card stack" aria-labelledby="scan-heading">
      <h3 id="scan-heading">{t('feature.scanHeading')}</h3>
      <form className="row" onSubmit={submit}>
        <label className="grow">{t('feature.serial')}
          <input name="serial" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" autoCapitalize="characters" />
        </label>
        <button type="submit" className="btn primary" disabled={busy || !typed.trim()}>{t('feature.find')}</button>
      </form>
      <div className="row">
        {hasNfc() ? (
          <button type="button" className="btn" onClick={() => void startNfc()} disabled={!!nfc}>📶 {t('feature.readNfc')}</button>
        ) : null}
        <button type="button" className="btn" onClick={() => setCamera(true)}>📷 {t('feature.scanCode')}</button>
      </div>
      {nfc ? <p role="status">{t('feature.nfcWaiting')}</p> : null}
      {error ? <p className="error" role="alert">{error}</p> : null}
      {camera ? <CameraReader onCode={onCode} onClose={() => setCamera(false)} /> : null}
    </section>
  );
}

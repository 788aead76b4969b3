import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMobile } from '../services';
import { parseScan } from './gs1';
import { hasNfc } from './nfc';
import { CameraReader, readTarget } from './ScanPanel';

/**
 * A "Scan" button filling an IBC serial: Web NFC where the browser has it (a tag without a text
 * record is looked up by its own serial in the kept copy), else the camera (QR or GS1 DataMatrix).
 */
export function ScanButton({ onSerial, label }: { onSerial: (serial: string) => void; label: string }) {
  const m = useMobile();
  const { t } = useTranslation();
  const [camera, setCamera] = useState(false);
  const [nfc, setNfc] = useState<AbortController | null>(null);
  const [error, setError] = useState<string | null>(null);
  const nfcRef = useRef(nfc);
  nfcRef.current = nfc;
  useEffect(() => () => nfcRef.current?.abort(), []);

  const startNfc = async () => {
    const ctrl = new AbortController();
    setNfc(ctrl);
    setError(null);
    const timer = setTimeout(() => ctrl.abort(), 30_000);
    try {
      const target = await readTarget(ctrl.signal);
      const serial = 'serial' in target ? target.serial : (await m.lookup(target))?.serial_number;
      if (typeof serial === 'string' && serial) onSerial(serial);
      else setError(t('feature.tagUnknown'));
    } catch (e) {
      if ((e as Error).name !== 'AbortError') setError(t('feature.nfcFailed', { message: (e as Error).message }));
    } finally {
      clearTimeout(timer);
      ctrl.abort();
      setNfc(null);
    }
  };
  const onCode = (raw: string) => {
    setCamera(false);
    const r = parseScan(raw);
    if (r) onSerial(r.serial);
  };
  return (
    <>
      <button type="button" className="btn" aria-label={`${t('feature.scan')}: ${label}`} disabled={!!nfc}
        onClick={() => (hasNfc() ? void startNfc() : setCamera(true))}>{hasNfc() ? '📶' : '📷'} {t('feature.scan')}</button>
      {nfc ? <p role="status" className="muted">{t('feature.nfcWaiting')}</p> : null}
      {error ? <p className="error" role="alert">{error}</p> : null}
      {camera ? <CameraReader onCode={onCode} onClose={() => setCamera(false)} /> : null}
    </>
  );
}

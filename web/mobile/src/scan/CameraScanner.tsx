import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createDetector } from './camera';

/** The rear camera in a full-screen overlay, reading QR and DataMatrix codes until one is found. */
export default function CameraScanner({ onCode, onClose }: { onCode: (raw: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stream: MediaStream | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
        if (stopped) return;
        const v = video.current!;
        v.srcObject = stream;
        await v.play();
        const detector = await createDetector();
        const tick = async () => {
          if (stopped) return;
          try {
            const [code] = v.readyState >= 2 ? await detector.detect(v) : [];
            if (code?.rawValue && !stopped) {
              onCode(code.rawValue);
              return;
            }
          } catch {
            // A frame that could not be read: try the next.
          }
          timer = setTimeout(() => void tick(), 200);
        };
        void tick();
      } catch (e) {
        if (!stopped) setError((e as Error).message || String(e));
      }
    })();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      stream?.getTracks().forEach((tr) => tr.stop());
    };
  }, [onCode]);
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label={t('camera.title')}>
      <p>{t('camera.title')}</p>
      {error ? <p className="error" role="alert">{t('camera.failed', { message: error })}</p> : <video ref={video} className="camera" muted playsInline />}
      <button type="button" className="btn" onClick={onClose}>{t('camera.close')}</button>
    </div>
  );
}

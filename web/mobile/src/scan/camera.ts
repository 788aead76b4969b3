/**
 * The camera's code reader, loaded only when the user opens the camera (a dynamic import: not
 * part of the first load). The browser's own BarcodeDetector when it reads both QR and
 * DataMatrix; otherwise the barcode-detector ponyfill over zxing-wasm, whose .wasm is served
 * from this app (bundled, precached by the service worker) instead of the package's CDN default,
 * so it works offline and under the CSP's connect-src 'self'.
 */
import { BarcodeDetector as ZxingDetector, prepareZXingModule } from 'barcode-detector/ponyfill';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

prepareZXingModule({ overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) } });

const FORMATS = ['qr_code', 'data_matrix'] as const;

export interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}

type Native = { new (o: { formats: string[] }): Detector; getSupportedFormats(): Promise<string[]> };

export async function createDetector(): Promise<Detector> {
  const native = (globalThis as unknown as { BarcodeDetector?: Native }).BarcodeDetector;
  if (native) {
    try {
      const supported = await native.getSupportedFormats();
      if (FORMATS.every((f) => supported.includes(f))) return new native({ formats: [...FORMATS] });
    } catch {
      // Fall through to zxing.
    }
  }
  return new ZxingDetector({ formats: [...FORMATS] });
}

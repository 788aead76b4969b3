/** Web NFC (Chrome on Android): present when the browser has NDEFReader. */
interface NdefRecord {
  recordType: string;
  encoding?: string;
  data?: DataView;
}
interface NdefReadingEvent extends Event {
  serialNumber: string;
  message: { records: NdefRecord[] };
}
interface NdefReader extends EventTarget {
  scan(options?: { signal?: AbortSignal }): Promise<void>;
  onreading: ((e: NdefReadingEvent) => void) | null;
  onreadingerror: ((e: Event) => void) | null;
}

export function hasNfc(): boolean {
  return typeof window !== 'undefined' && 'NDEFReader' in window;
}

export interface TagRead {
  /** The tag's own serial number (what the IBC's NFC field maps). */
  tag: string;
  /** The first text or URL record, when the tag carries one (an IBC serial or Digital Link). */
  text: string | null;
}

/** Waits for one tag; aborting the signal stops the scan. */
export async function readTag(signal: AbortSignal): Promise<TagRead> {
  const Reader = (window as unknown as { NDEFReader: new () => NdefReader }).NDEFReader;
  const reader = new Reader();
  await reader.scan({ signal });
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    reader.onreadingerror = () => reject(new Error('unreadable tag'));
    reader.onreading = (e) => {
      const rec = e.message.records.find((r) => r.recordType === 'text' || r.recordType === 'url');
      const text = rec?.data ? new TextDecoder(rec.encoding ?? 'utf-8').decode(rec.data) : null;
      resolve({ tag: e.serialNumber, text });
    };
  });
}

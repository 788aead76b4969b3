import { useCallback, useEffect, useState } from 'react';
import type { i18n as I18n } from 'i18next';
import type { WarehouseGroup } from '../../../engine/src/index';
import { isLang } from '../i18n/language';
import type { GoToPayload } from '../frame/messages';

export interface GuestFrame {
  /** The group the shell says is selected; undefined until it says (the stored choice is used meanwhile). */
  warehouse: WarehouseGroup | null | undefined;
  warehouseList: WarehouseGroup[];
  goTo: (payload: GoToPayload) => void;
}

/** Reads a parentFrameData payload; anything else is null. */
export function frameDataOf(data: unknown): { warehouse: WarehouseGroup | null; warehouseList: WarehouseGroup[] } | null {
  const d = data as { type?: string; payload?: { warehouse?: WarehouseGroup | null; warehouseList?: unknown } } | null;
  if (d?.type !== 'parentFrameData') return null;
  const w = d.payload?.warehouse;
  return {
    warehouse: w && typeof w.name === 'string' ? w : null,
    warehouseList: Array.isArray(d.payload?.warehouseList) ? (d.payload.warehouseList as WarehouseGroup[]) : [],
  };
}

/**
 * The guest side of the frame protocol (SPEC 7): guestIsReady and requestLanguagePref on
 * start, the shell's warehouse and language as they change, goTo for links to other features.
 */
export function useGuestFrame(i18n: I18n): GuestFrame {
  const [warehouse, setWarehouse] = useState<WarehouseGroup | null | undefined>(undefined);
  const [warehouseList, setWarehouseList] = useState<WarehouseGroup[]>([]);
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      // Only the embedding shell talks to it; the shell may be on another name of this host (localhost).
      if (e.source !== window.parent) return;
      const frameData = frameDataOf(e.data);
      if (frameData) { setWarehouse(frameData.warehouse); setWarehouseList(frameData.warehouseList); }
      const d = e.data as { type?: string; payload?: { language?: unknown } } | null;
      if (d?.type === 'languagePref' && isLang(d.payload?.language)) void i18n.changeLanguage(d.payload.language);
    };
    window.addEventListener('message', onMessage);
    // Nothing secret is sent; the shell checks this frame's origin against its own list.
    window.parent.postMessage({ type: 'guestIsReady' }, '*');
    window.parent.postMessage({ type: 'requestLanguagePref' }, '*');
    return () => window.removeEventListener('message', onMessage);
  }, [i18n]);
  const goTo = useCallback((payload: GoToPayload) => window.parent.postMessage({ type: 'goTo', payload }, '*'), []);
  return { warehouse, warehouseList, goTo };
}

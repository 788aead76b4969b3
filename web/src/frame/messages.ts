import type { Lang, WarehouseGroup } from '../../../engine/src/index';

/**
 * Messages between the shell and an embedded feature frame (SPEC 7). Every message is an
 * object `{type, payload?}`:
 *
 * from the frame
 *   {type: 'guestIsReady'}
 *   {type: 'requestLanguagePref'}
 *   {type: 'goTo', payload: {type, path?, query?}}
 *   {type: 'clearSelectedWarehouse'}
 *   {type: 'helpStatus', payload: {enabled}}          the frame announces its help module
 * to the frame
 *   {type: 'parentFrameData', payload: {warehouse, warehouseList}}
 *   {type: 'languagePref', payload: {language}}
 *   {type: 'startHelp'}
 * to the main origin, before each navigation
 *   {type: 'helpDisabled'}
 */
export interface GoToPayload {
  type: string;
  path?: string;
  /** Checked by the engine's query validation for the type before anything navigates. */
  query?: unknown;
}

export type InboundMessage =
  | { type: 'guestIsReady' }
  | { type: 'requestLanguagePref' }
  | { type: 'goTo'; payload: GoToPayload }
  | { type: 'clearSelectedWarehouse' }
  | { type: 'helpStatus'; payload: { enabled: boolean } };

export type OutboundMessage =
  | { type: 'parentFrameData'; payload: { warehouse: WarehouseGroup | null; warehouseList: WarehouseGroup[] } }
  | { type: 'languagePref'; payload: { language: Lang } }
  | { type: 'startHelp' }
  | { type: 'helpDisabled' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a frame message; anything not of the protocol is null and ignored. */
export function parseInbound(data: unknown): InboundMessage | null {
  if (!isObject(data) || typeof data.type !== 'string') return null;
  const payload = data.payload;
  switch (data.type) {
    case 'guestIsReady':
    case 'requestLanguagePref':
    case 'clearSelectedWarehouse':
      return { type: data.type };
    case 'goTo': {
      if (!isObject(payload) || typeof payload.type !== 'string' || !payload.type) return null;
      return {
        type: 'goTo',
        payload: {
          type: payload.type,
          path: typeof payload.path === 'string' ? payload.path : undefined,
          query: payload.query,
        },
      };
    }
    case 'helpStatus':
      return { type: 'helpStatus', payload: { enabled: isObject(payload) && payload.enabled === true } };
    default:
      return null;
  }
}

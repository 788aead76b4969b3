import type { LocalText } from '../text';

/** The icons a mobile feature may show (schemas/meta/mobile.schema.json). */
export const MOBILE_ICONS = [
  'nfc', 'return', 'qc', 'inventory', 'batch', 'truck', 'reception', 'outbound', 'request', 'distributor', 'transfer', 'map', 'transporter', 'bulk', 'bulkReception',
] as const;
export type MobileIcon = (typeof MOBILE_ICONS)[number];

/** A mobile feature key of SPEC 6: `ibc.mobile.*` or `bulk.mobile.*`, declared in schemas/access.json with its operations. */
export const MOBILE_KEY = /^(ibc|bulk)\.mobile\./;

/** The columns of a stock row (GET /api/v3/stock), what a stock feature's list names. */
export const STOCK_ROW_FIELDS = ['material', 'batch', 'deposit', 'quantity', 'unit', 'elaborationDate', 'expirationDate', 'daysToExpire'];

/** The backend operation a stock feature's key lists (GET /api/v3/stock). */
export const STOCK_OPERATION = 'inventory';

export interface MobileActionDef {
  transition: string;
  /** Record paths the app asks for (`receivedDate`, `location.lat`): the transition's input or requires paths. */
  fields: string[];
}

/** The record fields holding a point (`location.lat`, `location.lng`): the listed records on a map. */
export interface MobileListMap {
  lat: string;
  lng: string;
}

export interface MobileFeatureDef {
  id: string;
  key: string;
  label: LocalText;
  hint: LocalText;
  icon: MobileIcon;
  workflow?: string;
  source?: 'stock';
  scan?: 'ibc';
  list?: { states?: string[]; title: string; subtitle?: string[]; map?: MobileListMap };
  create?: { fields: string[] };
  actions: MobileActionDef[];
}

/** schemas/mobile.json as written. */
export interface MobileDefinition {
  appVersion: string;
  termsVersion: number;
  features: (Omit<MobileFeatureDef, 'actions'> & { actions?: { transition: string; fields?: string[] }[] })[];
}

/** schemas/mobile.json as the registry holds it: every action with its field list. */
export interface MobileDef {
  readonly appVersion: string;
  readonly termsVersion: number;
  readonly features: readonly MobileFeatureDef[];
}

/** The backend operation of the IBC look-up by serial or NFC tag (GET /api/v3/ibc/lookup), what a scanning feature's key lists. */
export const IBC_LOOKUP_OPERATION = 'getIBC';

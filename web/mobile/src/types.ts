import type { Lang, LocalText, MobileActionPayload } from '../../../engine/src/index';

export type { Lang };

/** One field of a feature's `fields` JSON Schema (only what the app reads). */
export interface FieldSchema {
  type?: string | string[];
  title?: LocalText | string;
  description?: LocalText | string;
  enum?: (string | number)[];
  /** Labels of the enum values, in their order (optional). */
  'x-enumLabels'?: (LocalText | string)[];
  /** A field with options, as the server's schemas give it (engine toJsonSchema): each value and its label. */
  oneOf?: { const?: string | number; title?: LocalText | string }[];
  format?: string;
  /** The entity a reference points to (a picker over its master data). */
  'x-ref'?: string;
  properties?: Record<string, FieldSchema>;
  required?: string[];
  minimum?: number;
  maximum?: number;
  /** An array's items (lines: `{type: 'object', properties, required}`). */
  items?: FieldSchema;
  /** An array's least count of items (1: the array is required). */
  minItems?: number;
}

export type FeatureIcon =
  | 'nfc' | 'return' | 'qc' | 'inventory' | 'batch' | 'truck' | 'reception' | 'outbound' | 'request'
  | 'distributor' | 'transfer' | 'map' | 'transporter' | 'bulk' | 'bulkReception';

export interface FeatureAction {
  transition: string;
  fields: string[];
  comment?: 'none' | 'optional' | 'required';
}

export interface TransitionDef {
  label: LocalText | string;
  from: string[];
  to?: string | null;
  /** Fields the transition requires (beyond the schema's `required`). */
  required?: string[];
  comment?: 'none' | 'optional' | 'required';
}

/** A mobile feature as GET /api/v3/mobile/app sends it: the screen is generated from it. */
export interface FeatureDef {
  id: string;
  key: string;
  label: LocalText | string;
  hint?: LocalText | string;
  icon: FeatureIcon;
  workflow: string;
  scan?: 'ibc';
  /** `map`: the record fields holding a point; the screen then shows the listed records on a map. */
  list?: { states: string[]; title: string; subtitle?: string[]; source?: 'operations' | 'stock'; map?: { lat: string; lng: string } };
  create?: { fields: string[] };
  actions: FeatureAction[];
  fields: FieldSchema;
  transitions: Record<string, TransitionDef>;
  /** The state a record created here starts in, when the server says (lets offline creates be acted on). */
  initial?: string;
  /** State labels, when the server sends them. */
  states?: Record<string, LocalText | string>;
  /** The record field holding the workflow's state, when the server says (else status, deliveryStatus, ibcStatus). */
  stateField?: string;
}

/** Where a map's tiles come from: a URL template with {z}/{x}/{y}, empty for none, and its attribution. */
export interface MapTiles {
  tileUrl: string;
  attribution: string;
}

export interface MobileApp {
  appVersion: string;
  termsVersion: number;
  termsAccepted: number | null;
  lang?: string;
  /** The deployment's map tiles (an empty `tileUrl`: none); absent from a copy kept before the server sent it. */
  map?: MapTiles;
  features: FeatureDef[];
}

/** A record as the app holds it: the server's fields plus its id and state. */
export interface MobileRecord {
  id: string;
  state?: string | null;
  [field: string]: unknown;
}

export interface ActionError {
  code: string;
  message: string;
  hint?: string;
}

/** One action as POST /api/v3/mobile/actions takes it. */
export type ActionPayload = MobileActionPayload;

export interface ActionResult {
  seq: number;
  status: 'applied' | 'rejected';
  record?: { id: string; state: string };
  error?: ActionError;
}

export type ActionStatus = 'pending' | 'applied' | 'rejected';

/** An action in the on-device queue: the payload, who made it, and the server's verdict once known. */
export interface QueuedAction extends ActionPayload {
  /** The signed-in user who made it: only their session sends it. */
  user: string;
  /** The warehouse group selected when it was made (sent as x-warehouse-group). */
  group: string | null;
  status: ActionStatus;
  /** What the list shows: the record's title when it was made. */
  title?: string;
  record?: { id: string; state: string };
  error?: ActionError;
  /** When the verdict arrived (ms). */
  doneAt?: number;
}

/**
 * What the generic feature screen reads from a feature definition (GET /api/v3/mobile/app):
 * the actions offered for a record's state, the input each field gets, the record's title.
 * Pure functions, no React: the screen stays a thin renderer (DESIGN: like TanStack Table).
 */
import { localize, type LocalText } from '../../../engine/src/index';
import { markerAt } from '../../src/masterdata/widgets/mapLogic';
import type { FeatureDef, FieldSchema, Lang, MobileRecord, QueuedAction, TransitionDef } from './types';

/** A feature as the server may send it: transitions as a list, action fields omitted, `source` beside `list`. */
export type RawFeature = Omit<FeatureDef, 'transitions' | 'actions' | 'list' | 'fields'> & {
  transitions?: FeatureDef['transitions'] | (TransitionDef & { transition: string; fields?: string[] })[];
  actions?: (Omit<FeatureDef['actions'][number], 'fields'> & { fields?: string[] })[];
  list?: Omit<NonNullable<FeatureDef['list']>, 'states'> & { states?: string[] };
  source?: 'operations' | 'stock';
  fields?: FieldSchema;
};

/**
 * The feature in the one shape the screen reads: transitions by id (the server may send a list of
 * `{transition, label, from, to, required, comment}`), every action with its fields (none when
 * omitted) and its transition's comment rule, the list's states (none: all) and source.
 */
export function normaliseFeature(raw: RawFeature): FeatureDef {
  const transitions: Record<string, TransitionDef> = Array.isArray(raw.transitions)
    ? Object.fromEntries(raw.transitions.map(({ transition, fields: _fields, ...t }) => [transition, t]))
    : raw.transitions ?? {};
  const actions = (raw.actions ?? []).map((a) => ({ ...a, fields: a.fields ?? [], comment: a.comment ?? transitions[a.transition]?.comment }));
  const list = raw.list ? { ...raw.list, states: raw.list.states ?? [], source: raw.list.source ?? raw.source } : undefined;
  return { ...raw, fields: raw.fields ?? { type: 'object', properties: {} }, transitions, actions, list };
}

export interface OfferedAction {
  transition: string;
  label: string;
  fields: string[];
  to: string | null;
  comment: 'none' | 'optional' | 'required';
  /** Fields the transition requires. */
  required: string[];
}

/** The feature's actions whose transition may start from `state`, in the definition's order. */
export function actionsFor(feature: FeatureDef, state: string | null | undefined, lang: Lang): OfferedAction[] {
  if (!state) return [];
  return feature.actions.flatMap((a) => {
    const t = feature.transitions[a.transition];
    if (!t || !t.from.includes(state)) return [];
    return [{ transition: a.transition, label: localize(t.label, lang) || a.transition, fields: a.fields, to: t.to ?? null, comment: a.comment ?? t.comment ?? 'optional', required: t.required ?? [] }];
  });
}

/** A field's schema by name: a property of that exact name, else a dotted path into nested objects. */
export function fieldSchema(feature: FeatureDef, name: string): FieldSchema {
  const props = feature.fields.properties ?? {};
  if (props[name]) return props[name];
  let s: FieldSchema | undefined = feature.fields;
  for (const part of name.split('.')) s = s?.properties?.[part];
  return s ?? {};
}

export type InputKind = 'text' | 'number' | 'integer' | 'boolean' | 'date' | 'datetime' | 'select' | 'reference' | 'nfc' | 'textarea' | 'lines';

const typeOf = (schema: FieldSchema) => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type);

/** A field's choices, from `enum` (labels in `x-enumLabels`) or a `oneOf` of constants (labels in their titles); null when it has none. */
export function choicesOf(schema: FieldSchema): { value: string | number; label: LocalText | string | undefined }[] | null {
  if (schema.enum?.length) return schema.enum.map((value, i) => ({ value, label: schema['x-enumLabels']?.[i] }));
  const consts = schema.oneOf?.filter((o) => o.const !== undefined);
  return consts?.length ? consts.map((o) => ({ value: o.const!, label: o.title })) : null;
}

/** The input a field gets, chosen by its schema (JSON Forms' testers): choices, reference, lines (an array of objects), type, format. */
export function inputKind(schema: FieldSchema, name = ''): InputKind {
  if (choicesOf(schema)) return 'select';
  if (schema['x-ref']) return 'reference';
  const type = typeOf(schema);
  if (type === 'array' && schema.items?.properties) return 'lines';
  if (type === 'boolean') return 'boolean';
  if (type === 'integer') return 'integer';
  if (type === 'number') return 'number';
  if (schema.format === 'date') return 'date';
  if (schema.format === 'date-time') return 'datetime';
  if (schema.format === 'nfc' || /nfc/i.test(name)) return 'nfc';
  if (schema.format === 'textarea') return 'textarea';
  return 'text';
}

/** The field's label in the language; the last part of its name when the schema has no title. */
export function fieldLabel(feature: FeatureDef, name: string, lang: Lang): string {
  return titleOf(fieldSchema(feature, name), name, lang);
}

/** A schema's title in the language; the last part of `name` when it has none. */
export function titleOf(schema: FieldSchema, name: string, lang: Lang): string {
  return localize(schema.title, lang) || name.split('.').pop()!;
}

/** The latitude and longitude fields of an action (last path part lat/latitude, lng/lon/longitude), when it has both. */
export function geoFields(fields: string[]): { lat: string; lng: string } | null {
  const last = (f: string) => f.split('.').pop()!.toLowerCase();
  const lat = fields.find((f) => ['lat', 'latitude'].includes(last(f)));
  const lng = fields.find((f) => ['lng', 'lon', 'longitude'].includes(last(f)));
  return lat && lng ? { lat, lng } : null;
}

/** The names among `fields` the transition or the schema requires (top-level `required`, or a nested object's). */
export function requiredFields(feature: FeatureDef, fields: string[], required: string[] = []): string[] {
  return fields.filter((name) => {
    if (required.includes(name) || feature.fields.required?.includes(name) || (fieldSchema(feature, name).minItems ?? 0) > 0) return true;
    const parts = name.split('.');
    let s: FieldSchema | undefined = feature.fields;
    for (const p of parts.slice(0, -1)) s = s?.properties?.[p];
    return parts.length > 1 && !!s?.required?.includes(parts[parts.length - 1]);
  });
}

/** A form's typed text turned into the value its schema wants; '' is no value. */
export function coerce(schema: FieldSchema, raw: string | boolean): unknown {
  if (typeof raw === 'boolean') return raw;
  if (raw.trim() === '') return undefined;
  const kind = inputKind(schema);
  if (kind === 'number' || kind === 'integer') {
    const n = Number(raw.replace(',', '.'));
    return Number.isFinite(n) ? n : raw;
  }
  const numbers = kind === 'select' ? choicesOf(schema)!.map((c) => c.value).filter((v) => typeof v === 'number') : [];
  if (numbers.length) {
    const n = Number(raw);
    return numbers.includes(n) ? n : raw;
  }
  return raw;
}

/** Values by dotted name turned into an object shaped like the record (`{location: {lat, lng}}`), blanks left out. */
export function nestFields(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const parts = name.split('.');
    let target = out;
    for (const p of parts.slice(0, -1)) target = (target[p] ??= {}) as Record<string, unknown>;
    target[parts[parts.length - 1]] = value;
  }
  return out;
}

/** One line of an array of objects as typed: its properties' text (a checkbox's boolean). */
export type Line = Record<string, string | boolean>;

/**
 * The properties a line asks, in the schema's order: all but an optional reference beside other
 * properties (the server derives it from a sibling, like `ibc` from `ibcNumber`).
 */
export function lineProps(items: FieldSchema): string[] {
  const props = Object.keys(items.properties ?? {});
  const asked = props.filter((p) => !items.properties![p]['x-ref'] || items.required?.includes(p));
  return asked.length ? asked : props;
}

/** Whether a line property holds an IBC serial (it gets a scan button). */
export const holdsSerial = (prop: string): boolean => /ibcNumber|serial/i.test(prop);

/**
 * Typed lines turned into the list the record holds: each property coerced by its schema, blank
 * lines dropped; `missing` names the first kept line (0-based) leaving a required property blank.
 */
export function collectLines(items: FieldSchema, lines: Line[]): { value: Record<string, unknown>[]; missing?: { line: number; prop: string } } {
  const props = lineProps(items);
  const value: Record<string, unknown>[] = [];
  for (const [i, line] of lines.entries()) {
    const typed = Object.fromEntries(props.map((p) => [p, line[p] === undefined ? undefined : coerce(items.properties![p], line[p])]));
    if (Object.values(typed).every((v) => v === undefined || v === false)) continue;
    const prop = props.find((p) => items.required?.includes(p) && typed[p] === undefined);
    if (prop) return { value, missing: { line: i, prop } };
    value.push(nestFields(typed));
  }
  return { value };
}

/** Whether a scanned IBC is itself the feature's record (the ibc workflow's records are the IBCs). */
export function scanFindsRecord(feature: FeatureDef): boolean {
  return feature.workflow === 'ibc';
}

/** Where a workflow keeps its state when the server does not say. */
const STATE_FIELDS = ['status', 'deliveryStatus', 'ibcStatus'];

/** The record's workflow state, under whichever field the workflow keeps it. */
export function stateOf(record: Record<string, unknown>, stateField?: string): string | null {
  for (const f of stateField ? [stateField] : STATE_FIELDS) {
    const v = valueAt(record, f);
    if (typeof v === 'string') return v;
  }
  return typeof record.state === 'string' ? record.state : null;
}

/** A value at a dotted path of a record. */
export function valueAt(record: Record<string, unknown>, path: string): unknown {
  let v: unknown = record;
  for (const p of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

function shown(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The title a master-data record is shown by (its name, else the first text field, else its id). */
export function optionTitle(r: MobileRecord): string {
  for (const k of ['name', 'title', 'label', 'division_name', 'company_name', 'code']) if (typeof r[k] === 'string' && r[k]) return r[k] as string;
  const first = Object.entries(r).find(([k, v]) => k !== 'id' && typeof v === 'string' && v);
  return first ? String(first[1]) : r.id;
}

/** How listed values are read: the language, and the kept master data by entity (to name references; none yet: their ids). */
export interface ValueView {
  lang: Lang;
  refs?: Record<string, MobileRecord[] | undefined>;
}

/** The field paths a feature's list shows: its title and subtitle. */
const listFields = (feature: FeatureDef): string[] => (feature.list ? [feature.list.title, ...(feature.list.subtitle ?? [])] : []);

/** The entities the fields of a feature's list reference (`x-ref`): the master data to load to name them, each once. */
export function listRefs(feature: FeatureDef): string[] {
  const refs = listFields(feature).map((f) => fieldSchema(feature, f)).map((s) => s['x-ref'] ?? s.items?.['x-ref']);
  return [...new Set(refs.filter((e): e is string => !!e))];
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/** A date (`format: date`: the day as written, whatever the device's zone) or a date-time in the language; the raw text when it is none. */
function shownDate(v: string, time: boolean, lang: Lang): string {
  const day = DAY.exec(v);
  const d = time ? new Date(v) : day ? new Date(Date.UTC(+day[1], +day[2] - 1, +day[3])) : new Date(NaN);
  if (Number.isNaN(d.getTime())) return v;
  return time ? d.toLocaleString(lang) : d.toLocaleDateString(lang, { timeZone: 'UTC' });
}

/**
 * A record's value as a person reads it, by its field in the feature's schema: the workflow's
 * state field gives the state's label, a field with choices the choice's label, a reference the
 * referenced record's title from the kept master data (its id while they load or when not kept),
 * a date the language's date; anything else as it is.
 */
export function shownValue(feature: FeatureDef, field: string, value: unknown, view: ValueView): string {
  if (value === undefined || value === null || value === '') return '';
  const schema = fieldSchema(feature, field);
  if (Array.isArray(value)) {
    const items = schema.items ?? {};
    return value.map((v) => shownScalar(feature, field, items, v, view)).filter(Boolean).join(', ');
  }
  return shownScalar(feature, field, schema, value, view);
}

function shownScalar(feature: FeatureDef, field: string, schema: FieldSchema, value: unknown, view: ValueView): string {
  if (typeof value === 'string' && field === (feature.stateField ?? STATE_FIELDS.find((f) => f === field))) return stateLabel(feature, value, view.lang);
  const choice = choicesOf(schema)?.find((c) => String(c.value) === String(value));
  if (choice) return localize(choice.label, view.lang) || String(value);
  const entity = schema['x-ref'];
  if (entity) {
    const id = value && typeof value === 'object' ? (value as { id?: unknown }).id : value;
    const ref = view.refs?.[entity]?.find((r) => r.id === String(id));
    return ref ? optionTitle(ref) : shown(id ?? value);
  }
  if (typeof value === 'string' && (schema.format === 'date' || schema.format === 'date-time')) return shownDate(value, schema.format === 'date-time', view.lang);
  return shown(value);
}

/**
 * The record's title and subtitle from the feature's list definition (the id when it has none);
 * with a `view`, each value rendered by its field (`shownValue`), else as stored.
 */
export function recordTitle(feature: FeatureDef, record: MobileRecord, view?: ValueView): { title: string; subtitle: string } {
  const text = (f: string) => (view ? shownValue(feature, f, valueAt(record, f), view) : shown(valueAt(record, f)));
  const title = feature.list ? text(feature.list.title) : '';
  const subtitle = (feature.list?.subtitle ?? []).map(text).filter(Boolean).join(' · ');
  return { title: title || shown(record.serial_number) || record.id, subtitle };
}

/** A listed record on the map: where it stands and its title. */
export interface MapPoint {
  id: string;
  lat: number;
  lng: number;
  title: string;
}

/**
 * The feature's list on its map (`list.map` names the fields holding a point): a point per record
 * with both coordinates on the globe, and how many records have no place. Null: the list has no map.
 */
export function mapPoints(feature: FeatureDef, records: MobileRecord[]): { points: MapPoint[]; unplaced: number } | null {
  const map = feature.list?.map;
  if (!map) return null;
  const points: MapPoint[] = [];
  for (const r of records) {
    const at = markerAt(valueAt(r, map.lat), valueAt(r, map.lng));
    if (at) points.push({ id: r.id, lat: at[0], lng: at[1], title: recordTitle(feature, r).title });
  }
  return { points, unplaced: records.length - points.length };
}

/** A state's label: the definition's when it has one, else the id. */
export function stateLabel(feature: FeatureDef, state: string | null | undefined, lang: Lang): string {
  if (!state) return '';
  return localize(feature.states?.[state], lang) || state;
}

/**
 * The record as the device believes it now: the cached copy (read at `fetchedAt`) with the
 * queue's actions on it laid over in order — a verdict newer than the copy gives the server's
 * state, a pending transition its target state; a rejected action changes nothing. The
 * server's answer wins as soon as the list is read again.
 */
export function effectiveState(record: MobileRecord, actions: QueuedAction[], feature: FeatureDef, fetchedAt: number): string | null {
  let state = record.state ?? null;
  for (const a of actions) {
    if (a.recordId !== record.id) continue;
    if (a.status === 'applied' && a.record && (a.doneAt ?? 0) > fetchedAt) state = a.record.state;
    else if (a.status === 'pending') {
      if (a.kind === 'create') state = feature.initial ?? state;
      else state = feature.transitions[a.transition!]?.to ?? state;
    }
  }
  return state;
}

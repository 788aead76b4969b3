import {
  fieldAt, formOf, localize, type FeatureDef, type FieldDef, type Lang, type OperationFeatureDef, type Registry, type WorkflowDef,
} from '../../../engine/src/index';
import { getPath } from '../../../engine/src/validate/values';
import { SYNC_PATH } from '../../../engine/src/list/index';
import type { HistoryEntry, LinesDef, WorkflowState } from '../../../engine/src/workflow/types';
import { markerAt } from '../masterdata/widgets/mapLogic';
import { listPathOf, type SyncFilter } from './api';

type Rec = Record<string, unknown>;

/** A framed feature drawn from a workflow: the feature, its operation settings, the workflow and the entity. */
export interface OperationView {
  feature: FeatureDef;
  operation: OperationFeatureDef;
  workflow: WorkflowDef;
  entity: string;
  /** The deposit field the selected warehouse narrows on, and the batch picker reads stock at. */
  depositField: string;
  /** The states this feature lists (a work tray shows some); all the workflow's otherwise. */
  states: WorkflowState[];
  /** Whether the feature offers the new-record form. */
  create: boolean;
  /** The measures panel above the list (`ibc`: IBC holdings and fleet measures, with the fleet's list filters), or null. */
  measures: 'ibc' | null;
  /** Whether a map of the listed records having `location.lat/lng` is shown. */
  map: boolean;
  /** The route the list is read from (api.ts listPathOf). */
  listPath: string;
}

/** The screen options of CONTRACT16 (`measures`, `map`), read whether or not the engine's type declares them yet. */
type ScreenOptions = { measures?: string; map?: boolean };

/** The operation a framed feature shows, or null when it has none (the stand-in stays). */
export function operationView(registry: Registry, featureId: string): OperationView | null {
  const feature = registry.features.features.find((f) => f.id === featureId);
  const operation = feature?.operation;
  const workflow = operation ? registry.workflows[operation.workflow] : undefined;
  if (!feature || !operation || !workflow || !registry.entities[workflow.entity]) return null;
  const only = operation.states;
  const measures = (operation as OperationFeatureDef & ScreenOptions).measures === 'ibc' ? 'ibc' : null;
  return {
    feature, operation, workflow,
    entity: workflow.entity,
    depositField: operation.depositField ?? workflow.depositFields[0] ?? '',
    states: only ? workflow.states.filter((s) => only.includes(s.id)) : workflow.states,
    create: operation.create !== false,
    measures,
    map: (operation as OperationFeatureDef & ScreenOptions).map === true,
    listPath: listPathOf(workflow.name, measures),
  };
}

export interface StateBadge {
  id: string;
  label: string;
  color: string;
}

/** A state as a badge: its label in the language and its colour; an undeclared state shows its id in grey. */
export function stateBadge(workflow: WorkflowDef, stateId: unknown, lang: Lang): StateBadge {
  const id = typeof stateId === 'string' ? stateId : '';
  const s = workflow.states.find((x) => x.id === id);
  return { id, label: s ? localize(s.label, lang) : id, color: s?.color ?? '#9e9e9e' };
}

/** A record's state id. */
export function stateOf(workflow: WorkflowDef, record: Rec): string {
  const v = getPath(record, workflow.stateField);
  return typeof v === 'string' ? v : '';
}

/** Only records in the initial state are edited (the server answers 409 OPERATION_NOT_DRAFT otherwise). */
export function isEditable(workflow: WorkflowDef, record: Rec): boolean {
  return stateOf(workflow, record) === workflow.initial;
}

/** The Senasa Sync state of a record: an empty or absent status is pending. */
export function syncState(record: Rec): SyncFilter {
  const v = getPath(record, SYNC_PATH);
  return v === 'synced' ? 'synced' : v === 'failed' ? 'failed' : 'pending';
}

/** What a record's `sync` says beyond its state (the outbox writes it): for the badge's tip and the detail's panel. */
export interface SyncInfo {
  state: SyncFilter;
  /** The authority's transaction id, once synced. */
  transactionId?: string;
  /** The authority's reason, when it refused. */
  reason?: string;
  /** The legal deadline (ISO) of a record not yet declared. */
  deadline?: string;
  /** A pending record past its deadline. */
  overdue: boolean;
  attempts?: number;
  lastAttemptAt?: string;
  syncedAt?: string;
}

const textAt = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

export function syncInfo(record: Rec, now: Date): SyncInfo {
  const sync = (record.sync ?? {}) as Rec;
  const state = syncState(record);
  const deadline = state === 'pending' ? textAt(sync.deadline) : undefined;
  return {
    state,
    transactionId: textAt(sync.transactionId),
    reason: state === 'failed' ? textAt(sync.reason) : undefined,
    deadline,
    overdue: deadline !== undefined && Date.parse(deadline) < now.getTime(),
    attempts: typeof sync.attempts === 'number' ? sync.attempts : undefined,
    lastAttemptAt: textAt(sync.lastAttemptAt),
    syncedAt: textAt(sync.syncedAt),
  };
}

/** The state filter sent with a list call: the chosen state, else the feature's own states when it lists only some. */
export function stateParam(view: Pick<OperationView, 'operation'>, chosen: string | null): string[] | undefined {
  if (chosen) return [chosen];
  return view.operation.states;
}

/** The history kept on a record, newest last, whatever the field holds. */
export function historyOf(record: Rec): HistoryEntry[] {
  const h = record.history;
  return Array.isArray(h) ? h.filter((e): e is HistoryEntry => typeof e === 'object' && e !== null && typeof (e as HistoryEntry).to === 'string') : [];
}

/** The product lines of a record by the workflow's lines definition (`.` = the record is its own line). */
export function linesOf(lines: LinesDef | undefined, record: Rec): Rec[] {
  if (!lines) return [];
  if (lines.field === '.') return [record];
  const v = getPath(record, lines.field);
  return Array.isArray(v) ? v.filter((l): l is Rec => typeof l === 'object' && l !== null) : [];
}

/** What a line names: its material, batch, quantity and unit, by the workflow's line fields. */
export function lineParts(lines: LinesDef, line: Rec): { material: string; batch: string; quantity: number | undefined; unit: string } {
  const s = (p: string | undefined) => { const v = p ? getPath(line, p) : undefined; return v === undefined || v === null ? '' : String(v); };
  const q = getPath(line, lines.quantity);
  return { material: s(lines.material), batch: s(lines.batch), quantity: typeof q === 'number' ? q : undefined, unit: s(lines.unit) };
}

/** The key of one stock balance, to match a line with the stock rows answered for it. */
export const stockKey = (material: string, batch: string, deposit: string) => `${material}|${batch}|${deposit}`;

/**
 * How a transition's input is asked for: paths into a list of lines (`productData.rejected`,
 * or the workflow's lines field alone, meaning its rejected quantity) are a table of the lines
 * where only those line fields are typed; any other field is an input of its type.
 */
export type InputPart =
  | { kind: 'lines'; field: string; editable: FieldDef[]; shown: FieldDef[] }
  | { kind: 'field'; field: FieldDef };

/** The record's top-level fields a transition's input paths write into (`productData` for `productData.rejected`). */
export function inputRoots(input: readonly string[] | undefined): string[] {
  return [...new Set((input ?? []).map((p) => p.split('.')[0]))];
}

export function inputParts(registry: Registry, workflow: WorkflowDef, input: readonly string[] | undefined): InputPart[] {
  const fields = formOf(registry, workflow.entity)?.fields ?? [];
  const lines = workflow.lines;
  const out: InputPart[] = [];
  for (const root of inputRoots(input)) {
    const f = fieldAt(fields, root);
    if (!f) continue;
    if (!(f.multiple && f.fields)) { out.push({ kind: 'field', field: f }); continue; }
    const subs = (input ?? []).filter((p) => p.startsWith(`${root}.`)).map((p) => p.slice(root.length + 1));
    const isLines = lines?.field === root;
    const editableIds = subs.length ? subs : isLines && lines.rejected ? [lines.rejected] : [];
    const shownIds = isLines ? [lines.material, lines.batch, lines.quantity, lines.unit].filter((x): x is string => !!x) : f.fields.map((x) => x.id).filter((id) => !editableIds.includes(id));
    const pick = (ids: string[]) => ids.map((i) => f.fields!.find((x) => x.id === i)).filter((x): x is FieldDef => !!x);
    out.push({ kind: 'lines', field: root, editable: pick(editableIds), shown: pick(shownIds) });
  }
  return out;
}

/** Whether a transition can be sent: a required comment is written. */
export function commentMissing(comment: 'none' | 'optional' | 'required' | undefined, text: string): boolean {
  return comment === 'required' && text.trim() === '';
}

/** The text of a history entry's date: ISO date and minutes, in the reader's clock. */
export function historyWhen(at: string): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return at;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/**
 * The record field naming the deposit a new record's stock leaves (the batch picker lists
 * batches there): the first stock-removing effect leaving the initial state, else the
 * feature's deposit field.
 */
export function stockSourceField(view: Pick<OperationView, 'workflow' | 'depositField'>): string {
  for (const tr of view.workflow.transitions) {
    if (!tr.from.includes(view.workflow.initial)) continue;
    for (const e of tr.effects ?? []) {
      const ref = e.type === 'removeStock' ? e.deposit : e.type === 'moveStock' ? e.from : undefined;
      if (typeof ref === 'string' && ref.startsWith('$record.')) return ref.slice('$record.'.length);
    }
  }
  return view.depositField;
}

/**
 * The body of a transition call: the values under the transition's input fields, shaped like the
 * record (`{productData: [{rejected: 2}, …]}`; the engine takes only the input paths from it),
 * and the comment when one is written.
 */
export function transitionBody(transition: { input?: string[] }, values: Record<string, unknown>, comment: string): { comment?: string; fields?: Record<string, unknown> } {
  const body: { comment?: string; fields?: Record<string, unknown> } = {};
  const text = comment.trim();
  if (text) body.comment = text;
  const roots = inputRoots(transition.input);
  if (roots.length) body.fields = Object.fromEntries(roots.filter((f) => values[f] !== undefined).map((f) => [f, values[f]]));
  return body;
}

/** Every lines definition of a workflow: its own and those its effects name (a declaration's consumed inputs). */
function allLines(workflow: WorkflowDef): LinesDef[] {
  const out: LinesDef[] = workflow.lines ? [workflow.lines] : [];
  for (const tr of workflow.transitions) for (const e of tr.effects ?? []) if ('lines' in e && e.lines) out.push(e.lines);
  return out;
}

/**
 * The material field of the line whose batch is at `path` in a form (`['consumption', 0, 'batchId']`,
 * or `['batchId']` when the record is its own line), by the workflow's lines definitions; null when none matches.
 */
export function materialPathOf(workflow: WorkflowDef, path: readonly (string | number)[]): (string | number)[] | null {
  for (const l of allLines(workflow)) {
    const batch = l.batch.split('.');
    const material = l.material.split('.');
    if (l.field === '.') {
      if (path.length === batch.length && batch.every((p, i) => p === path[i])) return material;
      continue;
    }
    const field = l.field.split('.');
    const n = field.length;
    if (path.length !== n + 1 + batch.length || !field.every((p, i) => p === path[i]) || typeof path[n] !== 'number') continue;
    if (batch.every((p, i) => p === path[n + 1 + i])) return [...path.slice(0, n + 1), ...material];
  }
  return null;
}

/**
 * The fields a draft's form leaves out: what the server keeps (state, history and the entity's
 * serverFields), the reception's per-line rejected and accepted quantities, and the fields
 * only a later transition asks for (a delivery's received date).
 */
export function formOmissions(view: Pick<OperationView, 'workflow'>, serverFields: readonly string[]): string[] {
  const { workflow } = view;
  const out = new Set<string>([...serverFields, workflow.stateField]);
  const lines = workflow.lines;
  if (lines && lines.field !== '.') for (const f of [lines.rejected, lines.accepted]) if (f) out.add(`${lines.field}.${f}`);
  // A line's unit is its material's: the server fills it (LineChecks.withUnits), nobody types an id.
  const lineSets = [lines, ...workflow.transitions.flatMap((t) => (t.effects ?? []).map((e) => ('lines' in e ? e.lines : undefined)))];
  for (const l of lineSets) if (l?.unit) out.add(l.field === '.' ? l.unit : `${l.field}.${l.unit}`);
  const early = new Set(workflow.transitions.filter((t) => t.from.includes(workflow.initial)).flatMap((t) => t.input ?? []));
  for (const t of workflow.transitions) for (const f of t.input ?? []) if (!early.has(f) && f !== lines?.field) out.add(f);
  return [...out];
}

/** A listed record with a place: its id, coordinates, title and state, for the records map. */
export interface LocatedRecord { id: string; lat: number; lng: number; title: string; state: string }

/** The records having `location.lat/lng` on the globe (others are left out). */
export function locatedRecords(records: readonly Rec[], title: (r: Rec) => string, state: (r: Rec) => string): LocatedRecord[] {
  const out: LocatedRecord[] = [];
  for (const r of records) {
    const at = markerAt(getPath(r, 'location.lat'), getPath(r, 'location.lng'));
    if (at) out.push({ id: String(r.id), lat: at[0], lng: at[1], title: title(r), state: state(r) });
  }
  return out;
}

import { formatError, type ErrorCode } from '../errors';
import { fieldAt, formOf, type Registry } from '../registry/registry';
import { localize, type Lang, type LocalText } from '../text';
import { compileForm } from '../validate/format';
import { getPath, isRecord } from '../validate/values';
import { buildEvent, type PlanLookup } from './events';
import { compiledQuery } from './query';
import type { EffectDef, HistoryEntry, LinesDef, TransitionDef, TransitionPlan, ValueRef, WorkflowDefinition } from './types';
import { isBlank, linesOf, recordPath, resolveRef, setPath, type RefScope } from './values';

type Rec = Record<string, unknown>;

/** A transition refused for the user's input or the record's state: the server answers with the code's status. */
export class WorkflowError extends Error {
  readonly code: ErrorCode;
  readonly params: Record<string, unknown>;
  /** The record path at fault, when there is one (`productData.1.rejected`). */
  readonly field?: string;
  constructor(code: ErrorCode, params: Record<string, unknown>, field?: string) {
    super(formatError(code, params));
    this.code = code;
    this.params = params;
    this.field = field;
    this.name = 'WorkflowError';
  }
}

export interface PlanInput {
  comment?: string;
  /** Values for the transition's `input` paths, shaped like the record (`{productData: [{rejected: 2}, {}]}`). */
  fields?: Record<string, unknown>;
}

export interface PlanContext {
  userId: string;
  /** Who that is, kept in the history: whoever reads the record may not read users. */
  userName?: string;
  /** ISO date-time of the transition: history, events and `$now`. */
  now: string;
  /** The language labels in error params are given in. */
  lang?: Lang;
  lookup?: PlanLookup;
}

/** Where a record keeps its history (the operation entity declares it). */
export const HISTORY_FIELD = 'history';
export const COMMENT_LABEL: LocalText = Object.freeze({ en: 'Comment', es: 'Comentario', fr: 'Commentaire' });
/** Whether a guard admits a record; a transition without a guard always does. */
export function guardPasses(t: TransitionDef, record: Rec): boolean {
  return t.guard === undefined || compiledQuery(t.guard).test(record);
}

export interface AvailableTransition extends TransitionDef {
  /** False when the guard refuses the record as it is; a transition taking input is judged on its input. */
  allowed: boolean;
  reason?: LocalText;
}

/** The transitions this actor may take from the record's state now (the detail screen's buttons). */
export function availableTransitions(wf: WorkflowDefinition, record: Rec, access: readonly string[], superadmin: boolean): AvailableTransition[] {
  const state = String(getPath(record, wf.stateField) ?? '');
  return wf.transitions
    .filter((t) => t.from.includes(state) && (superadmin || access.includes(t.access)))
    .map((t) => {
      const allowed = t.input!.length > 0 || guardPasses(t, record);
      return { ...t, allowed, ...(allowed || !t.guardMessage ? {} : { reason: t.guardMessage }) };
    });
}

/** Every value at a dotted path, walking through lists (`productData.batchId` → one per line). */
function valuesAt(value: unknown, parts: string[]): unknown[] {
  if (parts.length === 0) return [value];
  if (Array.isArray(value)) return value.flatMap((v) => valuesAt(v, parts));
  return valuesAt(isRecord(value) ? value[parts[0]] : undefined, parts.slice(1));
}

/** Copies the input's values at `parts` into `target`; lists are merged element by element, never grown. */
function mergeInput(target: Rec, source: unknown, parts: string[]): void {
  if (!isRecord(source)) return;
  const [head, ...rest] = parts;
  if (!(head in source)) return;
  if (rest.length === 0) { target[head] = source[head]; return; }
  const from = source[head];
  const into = target[head];
  if (Array.isArray(into)) {
    if (!Array.isArray(from)) return;
    into.forEach((row, i) => { if (isRecord(row)) mergeInput(row, from[i], rest); });
  } else {
    if (!isRecord(into)) target[head] = {};
    mergeInput(target[head] as Rec, from, rest);
  }
}

/** The LinesDefs a transition walks, by field: setLines, stock effects and event templates. */
function linesWalked(t: TransitionDef): LinesDef[] {
  const all: (LinesDef | undefined)[] = [t.setLines?.lines];
  for (const e of t.effects!) {
    if (e.type === 'addStock' || e.type === 'removeStock' || e.type === 'moveStock') all.push(e.lines);
    if (e.type === 'emitEvent') all.push(e.event.lines, e.event.inputs, e.event.outputs);
  }
  const byField = new Map<string, LinesDef>();
  for (const l of all) if (l && !byField.has(l.field)) byField.set(l.field, l);
  return [...byField.values()];
}

const round = (n: number) => Math.round(n * 1e9) / 1e9;

/**
 * What taking `transitionId` on `record` does, without I/O: the record as it will be stored and
 * every effect, for the server to apply in one transaction. Order: the input is merged (only the
 * transition's `input` paths), `setLines` runs, accepted quantities are derived, lines are checked,
 * `requires` and the guard see the result, then the effects run in their written order.
 * Balances are not checked here: the server knows them.
 */
export function planTransition(
  reg: Registry, wf: WorkflowDefinition, record: Rec, transitionId: string, input: PlanInput, ctx: PlanContext,
): TransitionPlan {
  const lang = ctx.lang ?? 'en';
  const fields = formOf(reg, wf.entity)?.fields ?? [];
  const labelOf = (path: string) => {
    const f = fieldAt(fields, path.split('.').filter((p) => !/^\d+$/.test(p)).join('.'));
    return f ? localize(f.label, lang) : path;
  };
  const state = String(getPath(record, wf.stateField) ?? '');
  const t = wf.transitions.find((x) => x.id === transitionId);
  if (!t || !t.from.includes(state)) {
    throw new WorkflowError('TRANSITION_NOT_ALLOWED', { transition: t ? localize(t.label, lang) : transitionId, state });
  }
  const transition = localize(t.label, lang);
  const required = (path: string, field = path) => new WorkflowError('TRANSITION_FIELD_REQUIRED', { label: labelOf(path), transition }, field);

  const comment = t.comment === 'none' ? undefined : input.comment?.trim() || undefined;
  if (t.comment === 'required' && !comment) {
    throw new WorkflowError('TRANSITION_FIELD_REQUIRED', { label: localize(COMMENT_LABEL, lang), transition }, 'comment');
  }

  const next = structuredClone(record);
  for (const path of t.input!) mergeInput(next, input.fields, path.split('.'));
  if (t.input!.length > 0) checkInput(reg, wf, t, next, lang);
  const scope: RefScope = { record: next, userId: ctx.userId, now: ctx.now, comment };

  if (t.setLines) {
    for (const line of linesOf(next, t.setLines.lines!)) {
      for (const [k, v] of Object.entries(t.setLines.set)) line[k] = resolveRef(v, { ...scope, line });
    }
  }
  const inputs = new Set(t.input);
  for (const lines of linesWalked(t)) checkLines(next, lines, inputs.has(`${lines.field}.${lines.rejected}`) || (t.setLines?.lines?.field === lines.field && lines.rejected! in t.setLines.set), labelOf);

  for (const path of t.requires!) {
    const values = valuesAt(next, path.split('.'));
    if (values.length === 0 || values.some(isBlank)) throw required(path);
  }
  if (!guardPasses(t, next)) {
    throw new WorkflowError('TRANSITION_GUARD_FAILED', { transition, reason: t.guardMessage ? localize(t.guardMessage, lang) : '' });
  }

  const plan: TransitionPlan = { record: next, movements: [], lots: [], events: [], alerts: [], updates: [], records: [], logs: [] };
  const effects = new Effects(plan, scope, ctx, required, labelOf, `${wf.name}:${String(record.id ?? '')}:${t.id}:${ctx.now}`);
  t.effects!.forEach((e, i) => effects.apply(e, i));

  const to = t.to ?? state;
  const entry: HistoryEntry = { transition: t.id, from: state, to, by: ctx.userId, ...(ctx.userName ? { byName: ctx.userName } : {}), at: ctx.now, ...(comment ? { comment } : {}) };
  const history = Array.isArray(next[HISTORY_FIELD]) ? (next[HISTORY_FIELD] as unknown[]) : [];
  plan.record = setPath({ ...next, [HISTORY_FIELD]: [...history, entry] }, wf.stateField, to);
  return plan;
}

/**
 * The input's values are checked by the entity's own field rules (type, options, limits), in the
 * user's language; what the record held before is the create and update routes' business.
 */
function checkInput(reg: Registry, wf: WorkflowDefinition, t: TransitionDef, record: Rec, lang: Lang): void {
  const form = formOf(reg, wf.entity);
  if (!form) return;
  const taken = new Set(t.input);
  const bad = compileForm(form)(record, { lang }).messages.find(
    (m) => m.severity === 'error' && m.field !== undefined && taken.has(m.field.split('.').filter((p) => !/^\d+$/.test(p)).join('.')),
  );
  if (bad) throw new WorkflowError(bad.code, bad.params, bad.field);
}

/**
 * Quantities must be more than 0; a rejected quantity lies within 0..quantity and fixes the
 * accepted one. A transition that takes rejected quantities counts a line left blank as 0.
 */
function checkLines(record: Rec, lines: LinesDef, takesRejected: boolean, labelOf: (path: string) => string): void {
  linesOf(record, lines).forEach((line, i) => {
    const at = (f: string) => (lines.field === '.' ? f : `${lines.field}.${i}.${f}`);
    const q = line[lines.quantity];
    if (typeof q !== 'number' || !(q > 0)) {
      throw new WorkflowError('QUANTITY_NOT_POSITIVE', { label: labelOf(at(lines.quantity)), value: q ?? '' }, at(lines.quantity));
    }
    if (!lines.rejected) return;
    if (isBlank(line[lines.rejected]) && takesRejected) line[lines.rejected] = 0;
    const r = line[lines.rejected];
    if (isBlank(r)) return;
    const label = labelOf(at(lines.rejected));
    if (typeof r !== 'number' || !Number.isFinite(r)) {
      throw new WorkflowError('FORMAT_WRONG_TYPE', { label, value: String(r), type: 'number', provided: typeof r }, at(lines.rejected));
    }
    if (r < 0) throw new WorkflowError('FORMAT_TOO_SMALL', { label, value: r, limit: 0 }, at(lines.rejected));
    if (r > q) throw new WorkflowError('FORMAT_TOO_LARGE', { label, value: r, limit: q }, at(lines.rejected));
    if (lines.accepted) line[lines.accepted] = round(q - r);
  });
}

/** The effect vocabulary: each kind adds to the plan; a new kind is a new case here. */
class Effects {
  constructor(
    private readonly plan: TransitionPlan,
    private readonly scope: RefScope,
    private readonly ctx: PlanContext,
    private readonly required: (path: string, field?: string) => WorkflowError,
    private readonly labelOf: (path: string) => string,
    private readonly key: string,
  ) {}

  apply(e: EffectDef, index: number): void {
    switch (e.type) {
      case 'addStock': this.stock(e.lines!, e.quantity, [[e.deposit, 1]], e.lot ?? {}); break;
      case 'removeStock': this.stock(e.lines!, e.quantity, [[e.deposit, -1]]); break;
      case 'moveStock': this.stock(e.lines!, e.quantity, [[e.from, -1], [e.to, 1]]); break;
      case 'emitEvent': {
        const event = buildEvent(e.event, { scope: this.scope, lookup: this.ctx.lookup, key: `${this.key}:${index}` });
        if (event) this.plan.events.push(event);
        break;
      }
      case 'setSyncPending': this.scope.record.sync = { status: '' }; break;
      case 'raiseAlert': this.plan.alerts.push({ title: e.title, description: e.description, severity: e.severity! }); break;
      case 'updateRecord': {
        const id = this.text(e.id, this.scope);
        this.plan.updates.push({ entity: e.entity, id, set: Object.fromEntries(Object.entries(e.set).map(([k, v]) => [k, resolveRef(v, this.scope)])) });
        break;
      }
    }
  }

  /** A referenced value that must be a non-empty text (a deposit, a material, a batch, an id). */
  private text(ref: ValueRef, scope: RefScope, path = recordPath(ref)): string {
    const v = resolveRef(ref, scope);
    if (typeof v === 'number') return String(v);
    if (typeof v !== 'string' || v.trim() === '') throw this.required(path ?? String(ref));
    return v;
  }

  /** Signed movements per line and side; an arrival (`lot` given) also creates the lot when absent. */
  private stock(lines: LinesDef, quantity: ValueRef | undefined, sides: [ValueRef, 1 | -1][], lot?: { elaborationDate?: ValueRef; expirationDate?: ValueRef }): void {
    linesOf(this.scope.record, lines).forEach((line, i) => {
      const scope = { ...this.scope, line };
      const linePath = (f: string) => (lines.field === '.' ? f : `${lines.field}.${i}.${f}`);
      const q = Number(resolveRef(quantity ?? `$line.${lines.quantity}`, scope));
      if (q === 0) return;
      if (!Number.isFinite(q) || q < 0) {
        const path = linePath(lines.quantity);
        throw new WorkflowError('QUANTITY_NOT_POSITIVE', { label: this.labelOf(path), value: String(q) }, path);
      }
      const material = this.text(`$line.${lines.material}`, scope, linePath(lines.material));
      const batch = this.text(`$line.${lines.batch}`, scope, linePath(lines.batch));
      const lineUnit = lines.unit ? line[lines.unit] : undefined;
      const unit = typeof lineUnit === 'string' && lineUnit ? lineUnit : this.ctx.lookup?.materials?.[material]?.uom;
      for (const [deposit, sign] of sides) {
        const where = this.text(deposit, scope);
        this.plan.movements.push({ material, batch, deposit: where, quantity: sign * q, ...(unit ? { unit } : {}) });
      }
      if (lot && !this.plan.lots.some((l) => l.material === material && l.number === batch)) {
        const date = (ref: ValueRef | undefined) => { const v = ref === undefined ? undefined : resolveRef(ref, scope); return typeof v === 'string' && v ? v : undefined; };
        const elaborationDate = date(lot.elaborationDate);
        const expirationDate = date(lot.expirationDate);
        this.plan.lots.push({ material, number: batch, ...(elaborationDate ? { elaborationDate } : {}), ...(expirationDate ? { expirationDate } : {}) });
      }
    });
  }
}

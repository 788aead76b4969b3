import { formatError, type ErrorCode } from '../errors';
import { fieldAt, formOf, type Registry } from '../registry/registry';
import { localize, type Lang, type LocalText } from '../text';
import { compileForm } from '../validate/format';
import { getPath, isRecord } from '../validate/values';
import { transitionKeys } from './access';
import { buildEvent, stableUuid, type PlanLookup } from './events';
import { compiledQuery, transitionQuery } from './query';
import type {
  EffectDef, HistoryEntry, LinesDef, TransitionDef, TransitionPlan, TransitionRecordsEffect, ValueRef, WorkflowDefinition,
} from './types';
import { isBlank, lineValue, linesOf, recordPath, resolveRef, setPath, valuesAt, type RefScope } from './values';

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

/**
 * The transitions this actor may take from the record's state now (the detail screen's buttons).
 * Given the registry, a key listing one of a transition's `operations` grants it too.
 */
export function availableTransitions(
  wf: WorkflowDefinition, record: Rec, access: readonly string[], superadmin: boolean, reg?: Pick<Registry, 'access'>,
): AvailableTransition[] {
  const state = String(getPath(record, wf.stateField) ?? '');
  const held = (t: TransitionDef) => (reg ? transitionKeys(reg, t) : [t.access]).some((k) => access.includes(k));
  return wf.transitions
    .filter((t) => t.from.includes(state) && (superadmin || held(t)))
    .map((t) => {
      const allowed = t.input!.length > 0 || guardPasses(t, record);
      return { ...t, allowed, ...(allowed || !t.guardMessage ? {} : { reason: t.guardMessage }) };
    });
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

/** The LinesDefs a transition walks, by field: setLines, the stock effects and event templates that run. */
function linesWalked(t: TransitionDef, effects: readonly EffectDef[]): LinesDef[] {
  const all: (LinesDef | undefined)[] = [t.setLines?.lines];
  for (const e of effects) {
    if (e.type === 'addStock' || e.type === 'removeStock' || e.type === 'moveStock') all.push(e.lines);
    // An event naming its objects (epcs) lists line quantities only where there are some (an empty IBC's).
    if (e.type === 'emitEvent') all.push(e.event.epcs?.length ? undefined : e.event.lines, e.event.inputs, e.event.outputs);
  }
  const byField = new Map<string, LinesDef>();
  for (const l of all) if (l && !byField.has(l.field)) byField.set(l.field, l);
  return [...byField.values()];
}

const round = (n: number) => Math.round(n * 1e9) / 1e9;

/** How deep `transitionRecords` may nest: an operation's records, and theirs. */
export const MAX_RECORD_DEPTH = 2;

/** The operation a record's transition is part of, when another transition took it (`transitionRecords`). */
interface Parent {
  workflow: string;
  id: string;
  transition: string;
  /** The parent's event key with the effect and line index: the child's events and log row are named from it. */
  key: string;
  depth: number;
}

/**
 * What taking `transitionId` on `record` does, without I/O: the record as it will be stored and
 * every effect, for the server to apply in one transaction. Order: the input is merged (only the
 * transition's `input` paths), `setLines` runs, the effects' `when` conditions are judged,
 * accepted quantities are derived, lines are checked, `requires`, the guard and the refuse rules
 * see the result, then the effects that run do in their written order, the history entry is
 * appended and the log row written. Balances are not checked here: the server knows them.
 */
export function planTransition(
  reg: Registry, wf: WorkflowDefinition, record: Rec, transitionId: string, input: PlanInput, ctx: PlanContext,
): TransitionPlan {
  return plan(reg, wf, record, transitionId, input, ctx);
}

function plan(
  reg: Registry, wf: WorkflowDefinition, record: Rec, transitionId: string, input: PlanInput, ctx: PlanContext, parent?: Parent,
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
  const scope: RefScope = { record: next, before: record, userId: ctx.userId, now: ctx.now, comment };

  if (t.setLines) {
    for (const line of linesOf(next, t.setLines.lines!)) {
      for (const [k, v] of Object.entries(t.setLines.set)) line[k] = resolveRef(v, { ...scope, line });
    }
  }
  // Judged once, on the record the effects start from: an effect does not switch another on or off.
  const running = t.effects!.flatMap((e, i) => (e.when === undefined || transitionQuery(e.when, ctx.now, record).test(next) ? [{ e, i }] : []));
  const inputs = new Set(t.input);
  for (const lines of linesWalked(t, running.map((r) => r.e))) {
    checkLines(next, lines, inputs.has(`${lines.field}.${lines.rejected}`) || (t.setLines?.lines?.field === lines.field && lines.rejected! in t.setLines.set), labelOf);
  }

  for (const path of t.requires!) {
    const values = valuesAt(next, path).map((v) => v.value);
    if (values.length === 0 || values.some(isBlank)) throw required(path);
  }
  if (!guardPasses(t, next)) {
    throw new WorkflowError('TRANSITION_GUARD_FAILED', { transition, reason: t.guardMessage ? localize(t.guardMessage, lang) : '' });
  }
  for (const rule of t.refuse ?? []) {
    if (transitionQuery(rule.when, ctx.now, record).test(next)) {
      throw new WorkflowError('TRANSITION_REFUSED', { transition, reason: fillPlaceholders(localize(rule.message, lang), next) });
    }
  }

  const id = String(record.id ?? '');
  const key = parent?.key ?? `${wf.name}:${id}:${t.id}:${ctx.now}`;
  const out: TransitionPlan = { record: next, movements: [], lots: [], events: [], alerts: [], updates: [], records: [], logs: [] };
  const effects = new Effects({ reg, wf, t, plan: out, scope, ctx, required, labelOf, key, depth: parent?.depth ?? 0 });
  for (const { e, i } of running) effects.apply(e, i);

  const to = t.to ?? state;
  const history = Array.isArray(next[HISTORY_FIELD]) ? (next[HISTORY_FIELD] as HistoryEntry[]) : [];
  const entry: HistoryEntry = { transition: t.id, from: state, to, by: ctx.userId, ...(ctx.userName ? { byName: ctx.userName } : {}), at: ctx.now, ...(comment ? { comment } : {}) };
  out.record = setPath({ ...next, [HISTORY_FIELD]: [...history, entry] }, wf.stateField, to);
  if (wf.log) {
    const since = history.at(-1)?.at ?? record.createdAt;
    const logScope: RefScope = { ...scope, record: out.record };
    const doc: Rec = {
      ...Object.fromEntries(Object.entries(wf.log.fields).map(([k, v]) => [k, resolveRef(v, logScope)])),
      // The id names the row as the event keys name events: a replayed transition writes the same row.
      id: stableUuid(`log:${key}`).slice('urn:uuid:'.length),
      record: id, transition: t.id, from: state, to, at: ctx.now, by: ctx.userId,
      ...(typeof since === 'string' ? { since } : {}),
      ...(parent ? { operation: { workflow: parent.workflow, id: parent.id, transition: parent.transition } } : {}),
    };
    out.logs.push({ entity: wf.log.entity, doc });
  }
  return out;
}

/** A refuse rule's message with its `{path}` placeholders read from the record. */
function fillPlaceholders(message: string, record: Rec): string {
  return message.replace(/\{([A-Za-z0-9_.-]+)\}/g, (_, path: string) => {
    const v = getPath(record, path);
    return v === undefined || v === null ? '' : Array.isArray(v) ? v.join(', ') : String(v);
  });
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
    const q = getPath(line, lines.quantity);
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

interface EffectContext {
  reg: Registry;
  wf: WorkflowDefinition;
  t: TransitionDef;
  plan: TransitionPlan;
  scope: RefScope;
  ctx: PlanContext;
  required: (path: string, field?: string) => WorkflowError;
  labelOf: (path: string) => string;
  /** Names this transition's events uniquely and stably. */
  key: string;
  /** How many `transitionRecords` led here (0: the transition asked for). */
  depth: number;
}

/** The effect vocabulary: each kind adds to the plan; a new kind is a new case here. */
class Effects {
  private readonly plan: TransitionPlan;
  private readonly scope: RefScope;
  constructor(private readonly c: EffectContext) {
    this.plan = c.plan;
    this.scope = c.scope;
  }

  apply(e: EffectDef, index: number): void {
    switch (e.type) {
      case 'addStock': this.stock(e.lines!, e.quantity, [[e.deposit, 1]], e.lot ?? {}); break;
      case 'removeStock': this.stock(e.lines!, e.quantity, [[e.deposit, -1]]); break;
      case 'moveStock': this.stock(e.lines!, e.quantity, [[e.from, -1], [e.to, 1]]); break;
      case 'emitEvent': {
        const event = buildEvent(e.event, { scope: this.scope, entity: this.c.wf.entity, lookup: this.c.ctx.lookup, key: `${this.c.key}:${index}` });
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
      case 'setFields': this.setFields(e.set ?? {}, e.inc ?? {}); break;
      case 'transitionRecords': this.transitionRecords(e, index); break;
    }
  }

  /** A referenced value that must be a non-empty text (a deposit, a material, a batch, an id). */
  private text(ref: ValueRef, scope: RefScope, path = recordPath(ref)): string {
    const v = resolveRef(ref, scope);
    if (typeof v === 'number') return String(v);
    if (typeof v !== 'string' || v.trim() === '') throw this.c.required(path ?? String(ref));
    return v;
  }

  /** The record's own fields: every `set` value is read before any is written; null clears. */
  private setFields(set: Record<string, ValueRef>, inc: Record<string, number>): void {
    const record = this.scope.record;
    const values = Object.entries(set).map(([path, ref]) => [path, resolveRef(ref, this.scope) ?? null] as const);
    for (const [path, v] of values) Object.assign(record, setPath(record, path, v));
    for (const [path, by] of Object.entries(inc)) {
      const now = getPath(record, path);
      if (!isBlank(now) && typeof now !== 'number') {
        throw new WorkflowError('FORMAT_WRONG_TYPE', { label: this.c.labelOf(path), value: String(now), type: 'number', provided: typeof now }, path);
      }
      Object.assign(record, setPath(record, path, round(((now as number | undefined) ?? 0) + by)));
    }
  }

  /** Signed movements per line and side; an arrival (`lot` given) also creates the lot when absent. */
  private stock(lines: LinesDef, quantity: ValueRef | undefined, sides: [ValueRef, 1 | -1][], lot?: { elaborationDate?: ValueRef; expirationDate?: ValueRef }): void {
    linesOf(this.scope.record, lines).forEach((line, i) => {
      const scope = { ...this.scope, line };
      const linePath = (f: string) => recordPath(f) ?? (lines.field === '.' ? f : `${lines.field}.${i}.${f}`);
      const q = Number(quantity === undefined ? lineValue(lines.quantity, scope) : resolveRef(quantity, scope));
      if (q === 0) return;
      if (!Number.isFinite(q) || q < 0) {
        const path = linePath(lines.quantity);
        throw new WorkflowError('QUANTITY_NOT_POSITIVE', { label: this.c.labelOf(path), value: String(q) }, path);
      }
      const lineText = (f: string) => this.text(f.startsWith('$') ? f : `$line.${f}`, scope, linePath(f));
      const material = lineText(lines.material);
      const batch = lineText(lines.batch);
      const lineUnit = lines.unit ? lineValue(lines.unit, scope) : undefined;
      const unit = typeof lineUnit === 'string' && lineUnit ? lineUnit : this.c.ctx.lookup?.materials?.[material]?.uom;
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

  /**
   * Each line's referenced record takes its own transition, planned like one asked for (its
   * `from`, requires, refuse rules, input checks, effects), and its writes join this plan. The
   * actor's right to this transition is the right to those: their keys are not asked for.
   */
  private transitionRecords(e: TransitionRecordsEffect, index: number): void {
    const { reg, wf, t, ctx, depth } = this.c;
    const lang = ctx.lang ?? 'en';
    const child = reg.workflows[e.workflow];
    const entity = reg.entities[child.entity];
    const entityLabel = localize(entity.label, lang);
    const lines = getPath(this.scope.record, e.records.field);
    (Array.isArray(lines) ? lines : []).forEach((line: unknown, i) => {
      const at = `${e.records.field}.${i}`;
      const path = `${at}.${e.records.id}`;
      if (depth >= MAX_RECORD_DEPTH) {
        // A definition nesting deeper than the engine follows: refused whole, never half planned.
        throw new WorkflowError('TRANSITION_REFUSED', {
          transition: localize(t.label, lang),
          reason: `it would take transitions of ${e.workflow} records more than ${MAX_RECORD_DEPTH} operations deep`,
        }, path);
      }
      const scope = { ...this.scope, line: isRecord(line) ? line : {} };
      const id = this.text(`$line.${e.records.id}`, scope, path);
      // A record listed twice meets its own first transition: the plan's copy is the current one.
      const planned = this.plan.records.findIndex((r) => r.entity === child.entity && r.id === id);
      const current = planned >= 0 ? this.plan.records[planned].record : ctx.lookup?.records?.[child.entity]?.[id];
      if (!current) throw new WorkflowError('RECORD_NOT_FOUND', { entity: entityLabel, id }, path);
      const state = String(getPath(current, child.stateField) ?? '');
      const transitionId = String(resolveRef(e.transition, scope) ?? '');
      const ct = child.transitions.find((x) => x.id === transitionId);
      const stateLabel = localize(child.states.find((s) => s.id === state)?.label ?? state, lang);
      if (!ct) throw new WorkflowError('TRANSITION_NOT_ALLOWED', { transition: transitionId, state: stateLabel }, path);
      const matches = Object.entries(e.match ?? {}).every(([p, v]) => sameValue(getPath(current, p), resolveRef(v, scope)));
      if (!ct.from.includes(state) || !matches) {
        const title = getPath(current, entity.titleField);
        throw new WorkflowError('RECORD_NOT_AVAILABLE', {
          entity: entityLabel,
          record: isBlank(title) ? id : String(title),
          state: stateLabel,
          place: placeOf(current, child, ctx.lookup?.places),
          transition: localize(ct.label, lang),
        }, path);
      }
      const fields = Object.entries(e.fields ?? {}).reduce<Rec>((acc, [p, v]) => setPath(acc, p, resolveRef(v, scope)), {});
      const parent: Parent = { workflow: wf.name, id: String(this.scope.record.id ?? ''), transition: t.id, key: `${this.c.key}:${index}:${i}`, depth: depth + 1 };
      let sub: TransitionPlan;
      try {
        sub = plan(reg, child, current, transitionId, { fields, comment: this.scope.comment }, ctx, parent);
      } catch (err) {
        if (!(err instanceof WorkflowError)) throw err;
        throw new WorkflowError(err.code, err.params, lineField(err.field, e.fields ?? {}, at) ?? path);
      }
      this.merge(sub);
      const entry = { workflow: child.name, entity: child.entity, id, before: { state, ...(typeof current.updatedAt === 'string' ? { updatedAt: current.updatedAt } : {}) }, record: sub.record };
      if (planned >= 0) this.plan.records[planned] = { ...entry, before: this.plan.records[planned].before };
      else this.plan.records.push(entry);
    });
  }

  private merge(sub: TransitionPlan): void {
    const p = this.plan;
    p.movements.push(...sub.movements);
    for (const lot of sub.lots) if (!p.lots.some((l) => l.material === lot.material && l.number === lot.number)) p.lots.push(lot);
    p.events.push(...sub.events);
    p.alerts.push(...sub.alerts);
    p.updates.push(...sub.updates);
    p.logs.push(...sub.logs);
    for (const r of sub.records) {
      const i = p.records.findIndex((x) => x.entity === r.entity && x.id === r.id);
      if (i >= 0) p.records[i] = { ...r, before: p.records[i].before };
      else p.records.push(r);
    }
  }
}

/** Whether a referenced record holds what `match` asks; absent and null are one. */
function sameValue(held: unknown, wanted: unknown): boolean {
  return (held ?? null) === (wanted ?? null);
}

/** Where a record is, for a refusal: the customer holding it, else its first deposit; named when the lookup knows it. */
function placeOf(record: Rec, wf: WorkflowDefinition, places: Readonly<Record<string, string>> | undefined): string {
  const id = ['customer', ...wf.depositFields].map((f) => getPath(record, f)).find((v) => !isBlank(v));
  if (id === undefined) return '—';
  return places?.[String(id)] ?? String(id);
}

/** The parent's field a referenced record's refusal points at: the line or record field its input came from. */
function lineField(childField: string | undefined, fields: Record<string, ValueRef>, at: string): string | undefined {
  const ref = childField === undefined ? undefined : fields[childField];
  if (typeof ref !== 'string') return undefined;
  if (ref.startsWith('$line.')) return `${at}.${ref.slice('$line.'.length)}`;
  return recordPath(ref);
}

import {
  canAccess, formOf, localize, type ErrorCode, type Lang, type LocalText, type MobileFeatureDef, type Registry, type WorkflowDef,
} from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { AuthPrincipal } from '../auth/principal';
import { isStoreError, type Doc, type StoreErrorCode, type JsonValue, type Store, type StoredDoc } from '../store/types';
import type { OperationService } from '../workflows/service';
import { featureAnswer } from './app';
import { hintOf, presentVerdict, TERMS, VERDICTS, verdictId, type MobileAction, type StoredError, type StoredVerdict } from './verdicts';

type Rec = Record<string, unknown>;

export type { MobileAction };

/** Store errors that refuse the action's values (as the errors plugin answers them, 400): a rejected verdict. */
const STORE_REFUSALS: ReadonlySet<StoreErrorCode> = new Set(['INVALID_DOCUMENT', 'INVALID_ARGUMENT', 'INVALID_FILTER']);

/** Verdicts a device reads back in one answer. */
const VERDICTS_PAGE = 500;

const isPlain = (v: unknown): v is Rec => !!v && typeof v === 'object' && !Array.isArray(v);

/** Whether `stored` holds every value `sent` gives (objects by their keys, lists item by item); what the server added beside them (a line's resolved IBC) aside. */
function holds(stored: unknown, sent: unknown): boolean {
  if (isPlain(sent)) return isPlain(stored) && Object.entries(sent).every(([k, v]) => holds(stored[k], v));
  if (Array.isArray(sent)) return Array.isArray(stored) && stored.length === sent.length && sent.every((v, i) => holds(stored[i], v));
  return stored === sent;
}

/** The first key of `v`, at any depth, a store would read as an operator or a path (`$gt`, `a.b`), or that is empty. */
function operatorKey(v: unknown, at = ''): string | undefined {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) { const k = operatorKey(v[i], `${at}[${i}]`); if (k) return k; }
    return undefined;
  }
  if (!isPlain(v)) return undefined;
  for (const [k, x] of Object.entries(v)) {
    if (k === '' || k.startsWith('$') || k.includes('.')) return `${at}${at ? '.' : ''}${k}`;
    const inner = operatorKey(x, `${at}${at ? '.' : ''}${k}`);
    if (inner) return inner;
  }
  return undefined;
}

/** The first path of `fields` (shaped like the record) that none of `asked` (dotted paths) covers. */
function strayPath(fields: Rec, asked: readonly string[], prefix = ''): string | undefined {
  for (const [k, v] of Object.entries(fields)) {
    const path = `${prefix}${k}`;
    if (asked.includes(path)) continue;
    if (isPlain(v) && asked.some((a) => a.startsWith(`${path}.`))) {
      const inner = strayPath(v, asked, `${path}.`);
      if (inner) return inner;
      continue;
    }
    return path;
  }
  return undefined;
}

/** The values of `fields` at `paths`, shaped like the record. */
function pick(fields: Rec, paths: readonly string[]): Rec {
  const out: Rec = {};
  for (const path of paths) {
    const parts = path.split('.');
    let from: unknown = fields;
    for (const p of parts) from = isPlain(from) && Object.hasOwn(from, p) ? from[p] : undefined;
    if (from === undefined) continue;
    let to = out;
    for (const p of parts.slice(0, -1)) to = (to[p] ??= {}) as Rec;
    to[parts[parts.length - 1]] = from;
  }
  return out;
}

/**
 * The mobile app's server side (issue 20): what the app shows a user, the terms they accepted,
 * and the judge of the actions a device queued. Each action is judged at most once per user,
 * device and sequence number; an applied action's verdict is written with the transition (a
 * companion document, journaled with it) or in the draft's create section, so a retried action
 * finds its verdict rather than being judged again.
 */
export class MobileService {
  private readonly features: Map<string, MobileFeatureDef>;
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly reg: Registry, private readonly store: Store, private readonly ops: OperationService, private readonly clock: () => Date = () => new Date()) {
    this.features = new Map(reg.mobile.features.map((f) => [f.id, f]));
  }

  /** Whether the user holds the feature's key (superadmin holds all), narrowed by the selected warehouse as the key's routes are. */
  holds(p: AuthPrincipal, key: string): boolean {
    const customerModule = this.reg.access.keys.find((k) => k.key === key)?.customerModule;
    return canAccess(p, { key, customerModule }, this.reg.access.superadmin);
  }

  async app(p: AuthPrincipal, lang: Lang): Promise<Rec> {
    const terms = await this.store.get(TERMS, p.userId);
    const { appVersion, termsVersion } = this.reg.mobile;
    return {
      appVersion, termsVersion, termsAccepted: typeof terms?.version === 'number' ? terms.version : null, lang,
      features: this.reg.mobile.features.filter((f) => this.holds(p, f.key)).map((f) => featureAnswer(this.reg, f, lang)),
    };
  }

  async acceptTerms(p: AuthPrincipal, version: number): Promise<void> {
    const current = this.reg.mobile.termsVersion;
    if (version !== current) throw new ApiError('MOBILE_TERMS_VERSION', { version, current });
    const doc = { id: p.userId, version, acceptedAt: this.clock().toISOString() } as Doc;
    if (await this.store.get(TERMS, p.userId)) await this.store.update(TERMS, p.userId, doc);
    else await this.store.insert(TERMS, doc).catch(async (e) => {
      if (!isStoreError(e, 'DUPLICATE_KEY')) throw e;
      await this.store.update(TERMS, p.userId, doc); // accepted twice at once
    });
  }

  /** The caller's verdicts for a device after `after`, in sequence order. */
  async verdicts(p: AuthPrincipal, deviceId: string, after: number, lang: Lang): Promise<Rec> {
    const found = await this.store.find(VERDICTS, { filter: { userId: p.userId, deviceId, seq: { $gt: after } }, sort: { seq: 1 }, limit: VERDICTS_PAGE + 1 });
    return { results: found.slice(0, VERDICTS_PAGE).map((v) => presentVerdict(this.reg, v as unknown as StoredVerdict, lang)), more: found.length > VERDICTS_PAGE };
  }

  /** A malformed batch is refused whole (400) before anything is judged: nothing changes. */
  private checkBatch(actions: readonly MobileAction[]): void {
    const problems: { field: string; message: string }[] = [];
    const seqs = new Set<number>();
    actions.forEach((a, i) => {
      const at = `actions[${i}]`;
      const bad = (field: string, message: string) => problems.push({ field: `${at}.${field}`, message });
      if (seqs.has(a.seq)) bad('seq', `seq ${a.seq} is sent twice`);
      seqs.add(a.seq);
      // A feature no longer defined is judged, not refused whole: a device may queue under an older definition.
      const f = this.features.get(a.feature);
      if (!Object.hasOwn(this.reg.workflows, a.workflow)) bad('workflow', `there is no workflow ${a.workflow}`);
      else if (f?.workflow !== undefined && f.workflow !== a.workflow) bad('workflow', `feature ${a.feature} acts on ${f.workflow}, not ${a.workflow}`);
      if (a.kind === 'transition' && a.transition === undefined) bad('transition', 'a transition action names its transition');
      if (a.kind === 'create' && a.transition !== undefined) bad('transition', 'a create names no transition');
      if (Number.isNaN(Date.parse(a.at))) bad('at', `${a.at} is not a date and time`);
      const op = operatorKey(a.fields);
      if (op !== undefined) bad(`fields.${op}`, 'a field name cannot be empty, start with $ or contain a dot');
    });
    if (problems.length) throw new ApiError('INVALID_REQUEST', { detail: problems.map((d) => `${d.field}: ${d.message}`).join('; ') }, problems);
  }

  /** Judges the actions in sequence order, each against the records as they are then; a refusal does not stop the ones after it. */
  async judge(p: AuthPrincipal, deviceId: string, actions: readonly MobileAction[], lang: Lang): Promise<Rec> {
    this.checkBatch(actions);
    const sorted = [...actions].sort((a, b) => a.seq - b.seq);
    // One batch of a device at a time in this process: a retry racing its own first attempt waits for it.
    const verdicts = await this.serial(`${p.userId}:${deviceId}`, async () => {
      const out: StoredVerdict[] = [];
      for (const a of sorted) out.push(await this.one(p, deviceId, a, lang));
      return out;
    });
    return { results: verdicts.map((v) => presentVerdict(this.reg, v, lang)) };
  }

  private async serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(key) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => undefined);
    this.queues.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    }
  }

  private async one(p: AuthPrincipal, deviceId: string, a: MobileAction, lang: Lang): Promise<StoredVerdict> {
    const id = verdictId(p.userId, deviceId, a.seq);
    const judged = await this.store.get(VERDICTS, id);
    if (judged) return judged as unknown as StoredVerdict;
    const feature = this.features.get(a.feature);
    const base: StoredVerdict = {
      id, userId: p.userId, deviceId, seq: a.seq, feature: a.feature, workflow: a.workflow, recordId: a.recordId, kind: a.kind,
      ...(a.transition !== undefined ? { transition: a.transition } : {}),
      at: new Date(a.at).toISOString(), offline: a.offline, judgedAt: this.clock().toISOString(), status: 'rejected',
    };
    const reject = (error: StoredError) => this.keep({ ...base, error });
    if (!feature) return reject({ code: 'FORBIDDEN', params: { key: a.feature, feature: a.feature }, messageKey: 'mobile.forbidden.unknownFeature', hint: 'mobile.hint.unknownFeature', hintParams: {} });
    const label = feature.label;
    if (!this.holds(p, feature.key)) return reject({ code: 'FORBIDDEN', params: { key: feature.key }, hint: 'mobile.hint.access', hintParams: { feature: label } });
    const notOffered = (messageKey: string) => reject({
      code: 'FORBIDDEN', params: { key: feature.key, feature: label, action: a.transition ?? a.kind }, messageKey, hint: 'mobile.hint.notOffered', hintParams: { feature: label },
    });
    const notAsked = (field: string) => reject({
      code: 'INVALID_REQUEST', params: { detail: `${field} is not asked by ${localize(label)}`, field, feature: label }, messageKey: 'mobile.fieldNotAsked',
      hint: 'mobile.hint.values', hintParams: {}, details: [{ field, message: `${field} is not asked by ${localize(label)}` }],
    });
    const fields = a.fields ?? {};
    const wf = feature.workflow ? this.reg.workflows[feature.workflow] : undefined;
    const action = feature.actions.find((x) => x.transition === a.transition);
    if (!wf || (a.kind === 'create' ? !feature.create : !action)) return notOffered(a.kind === 'create' ? 'mobile.forbidden.noCreate' : 'mobile.forbidden.notOffered');
    const stray = strayPath(fields, a.kind === 'create' ? feature.create!.fields : action!.fields);
    if (stray !== undefined) return notAsked(stray);

    let applied: StoredVerdict | undefined;
    const write = {
      set: this.offlineStamp(wf, deviceId, a, base.at),
      // Nothing is written when the seq was judged meanwhile (by another server process).
      check: async (s: Store) => { if (await s.get(VERDICTS, id)) throw new ApiError('TRANSITION_CONFLICT', { entity: 'action', state: 'judged' }); },
      companions: (record: Rec) => {
        applied = { ...base, status: 'applied', record: { id: String(record.id ?? a.recordId), state: record[wf.stateField] === undefined ? null : String(record[wf.stateField]) } };
        return [{ coll: VERDICTS, doc: applied as unknown as Doc }];
      },
    };
    try {
      if (a.kind === 'create') await this.ops.create(wf.name, fields, p, lang, { ...write, id: a.recordId });
      else {
        const t = wf.transitions.find((x) => x.id === a.transition)!;
        const input = new Set(t.input ?? []);
        const body = { comment: a.comment, fields: pick(fields, action!.fields.filter((f) => input.has(f))) };
        await this.ops.transition(wf.name, a.recordId, t.id, body, p, lang, { ...write, fill: pick(fields, action!.fields.filter((f) => !input.has(f))) });
      }
      return applied!;
    } catch (e) {
      // Judged meanwhile: its verdict stands (the write above was rolled back or never started).
      const now = await this.store.get(VERDICTS, id);
      if (now) return now as unknown as StoredVerdict;
      // Only a store without transactions can leave a draft without its verdict (see createdUnjudged).
      if (a.kind === 'create' && e instanceof ApiError && e.code === 'DUPLICATE_KEY' && !this.store.capabilities.transactions) {
        const left = await this.createdUnjudged(wf, a.recordId, p, a.fields ?? {});
        if (left) return this.keep({ ...base, status: 'applied', record: { id: left.id, state: String(left[wf.stateField] ?? '') } });
      }
      // A value the store refuses is the action's fault, judged as the errors plugin answers it; a
      // failing store (STORE_FAILURE, CLOSED…) is not: no verdict is kept, its message is not shown, the retry judges it.
      if (isStoreError(e) && STORE_REFUSALS.has(e.code)) return reject({ code: 'INVALID_REQUEST', params: { detail: e.message }, hint: hintOf('INVALID_REQUEST'), hintParams: {} });
      if (!(e instanceof ApiError)) throw e;
      return reject(await this.refusal(e, wf, a.recordId, label));
    }
  }

  /**
   * A draft this user created under this id, holding what this create wrote, that no verdict
   * names: a store without transactions wrote the draft and stopped before its verdict. The retry
   * finds it and judges it applied. A draft of other content (the user's own web draft under the
   * same id) is not this create: it stays refused as taken.
   */
  private async createdUnjudged(wf: WorkflowDef, recordId: string, p: AuthPrincipal, fields: Rec): Promise<StoredDoc | undefined> {
    const record = await this.store.get(wf.entity, recordId);
    if (!record || record.createdBy !== p.userId || !holds(record, fields)) return undefined;
    const [named] = await this.store.find(VERDICTS, { filter: { workflow: wf.name, recordId, kind: 'create', status: 'applied' }, limit: 1 });
    return named ? undefined : record;
  }

  /** A refusal with its hint; one about the record's state names the state it is in now. */
  private async refusal(e: ApiError, wf: WorkflowDef, recordId: string, feature: LocalText): Promise<StoredError> {
    const hint = hintOf(e.code as ErrorCode);
    const details = e.details.map((d) => ({ ...(d.field !== undefined ? { field: d.field } : {}), message: d.message }));
    const error = { code: e.code as ErrorCode, params: e.params, hint, hintParams: {} as Rec, ...(details.length ? { details } : {}) };
    if (hint === 'mobile.hint.state') {
      const now = await this.store.get(wf.entity, recordId);
      const state = String(now?.[wf.stateField] ?? e.params.state ?? '');
      // The state as the app shows it (its label in the request's language), not its id.
      error.hintParams = { entity: this.reg.entities[wf.entity].label, state: wf.states.find((x) => x.id === state)?.label ?? state };
    } else if (hint === 'mobile.hint.access') error.hintParams = { feature };
    return error;
  }

  /** What marks a record acted on offline: the fields of these its entity has. */
  private offlineStamp(wf: WorkflowDef, deviceId: string, a: MobileAction, at: string): Record<string, JsonValue> {
    if (!a.offline) return {};
    const has = new Set(formOf(this.reg, wf.entity)!.fields.map((f) => f.id));
    const stamp: Record<string, JsonValue> = { offline: true, offlineAt: at, offlineDevice: deviceId };
    return Object.fromEntries(Object.entries(stamp).filter(([k]) => has.has(k)));
  }

  private async keep(v: StoredVerdict): Promise<StoredVerdict> {
    try {
      await this.store.insert(VERDICTS, v as unknown as Doc);
      return v;
    } catch (e) {
      if (!isStoreError(e, 'DUPLICATE_KEY')) throw e;
      return (await this.store.get(VERDICTS, v.id)) as unknown as StoredVerdict;
    }
  }
}

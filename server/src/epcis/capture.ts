/**
 * EPCIS capture (docs/epcis.md "Capture"): a document is checked whole (the envelope and each
 * event against GS1's JSON schema, bizStep and disposition against the CBV) before anything is
 * written; then its events are stored in one store step with their headers and identifier rows,
 * idempotent by the event hash (the same event again is counted a duplicate and stores nothing),
 * error declarations marking the event they name. The capture job records how it went.
 */
import { formatError, type ErrorCode } from '../../../engine/src/index';
import { ApiError, type ErrorDetail } from '../apiError';
import { newId } from '../store/ids';
import type { Doc, JsonValue, Store, StoredDoc } from '../store/types';
import { eventHash, prefixesOf } from './hash';
import { idsOfHeader } from './indexing';
import type { EpcisLimits } from './limits';
import { EPCIS_CAPTURES, EPCIS_DECLARATIONS, EPCIS_EVENTS, EPCIS_IDS, headerDoc, identifierRows } from './model';
import { envelopeProblems, eventProblems } from './schema';
import { normaliseTerms } from './vocabulary';

type Ev = Record<string, unknown>;
export type CaptureBehaviour = 'rollback' | 'proceed';
export const CAPTURE_BEHAVIOURS: readonly CaptureBehaviour[] = ['rollback', 'proceed'];

/** A problem as the standard writes one (RFC 7807), with the event's JSON pointer and our code. */
export interface CaptureProblem { type: string; title: string; status: number; detail: string; pointer: string; code: string }

export interface CaptureCounts { events: number; stored: number; duplicates: number; declarations: number; rejected: number }

export interface CaptureJob {
  captureID: string;
  createdAt: string;
  finishedAt?: string;
  running: boolean;
  success: boolean;
  captureErrorBehaviour: CaptureBehaviour;
  errors: CaptureProblem[];
  counts: CaptureCounts;
}

/** An event ready to store: checked, its CBV terms bare, its eventID (given or its hash). */
interface Incoming { pointer: string; event: Ev; eventID: string; hash: string; declaration?: Ev; context?: JsonValue }

/** What a stored header says of an event, as capture weighs a new one against it: `src` an operation's own, `capture` the capture that stored it. */
interface Known { id: string; hash: string; eventID: string; declared?: boolean; declaration?: unknown; pending?: Doc; src?: string; capture?: string }

/** Who captures: the user, and whether they are an administrator (who may declare any event in error). */
export interface Capturer { userId: string; admin: boolean }

const VALIDATION = 'epcisException:ValidationException';

function problem(code: ErrorCode, params: Record<string, unknown>, pointer: string): CaptureProblem {
  const detail = formatError(code, params);
  return { type: VALIDATION, title: 'The event cannot be captured', status: 400, detail, pointer, code };
}

const detailOf = (p: { pointer: string; detail: string; code: string }): ErrorDetail => ({ field: p.pointer, message: p.detail, code: p.code });

/** Where a document keeps its events: an EPCISDocument's body, or a query document's results. */
function eventsPath(doc: Ev): string[] {
  return doc.type === 'EPCISQueryDocument' ? ['epcisBody', 'queryResults', 'resultsBody', 'eventList'] : ['epcisBody', 'eventList'];
}

function at(doc: Ev, path: readonly string[]): unknown {
  let v: unknown = doc;
  for (const k of path) v = v && typeof v === 'object' && !Array.isArray(v) ? (v as Ev)[k] : undefined;
  return v;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export class CaptureService {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: Store, readonly limits: EpcisLimits) {}

  /**
   * The document's events ready to store, and those refused (greedy capture only): a document
   * that is not EPCIS, or (all or nothing) holds any invalid event, is a 400 naming every
   * problem by its JSON pointer; more events than the limit, a 413. Nothing is written.
   */
  check(body: unknown, behaviour: CaptureBehaviour): { incoming: Incoming[]; rejected: CaptureProblem[]; refused: number; total: number } {
    if (!body || typeof body !== 'object' || Array.isArray(body) || !['EPCISDocument', 'EPCISQueryDocument'].includes((body as Ev).type as string)) {
      const p = { pointer: '/type', detail: 'must be EPCISDocument or EPCISQueryDocument', code: 'EPCIS_INVALID_DOCUMENT' };
      throw new ApiError('EPCIS_INVALID_DOCUMENT', { count: 1 }, [detailOf(p)]);
    }
    const doc = body as Ev;
    const path = eventsPath(doc);
    const list = at(doc, path);
    const events = Array.isArray(list) ? list : [];
    if (events.length > this.limits.captureEvents) throw new ApiError('EPCIS_CAPTURE_LIMIT', { count: events.length, limit: this.limits.captureEvents });
    const envelope = envelopeProblems(doc, path);
    if (envelope.length) throw new ApiError('EPCIS_INVALID_DOCUMENT', { count: envelope.length }, envelope.map((p) => ({ field: p.pointer, message: p.message, code: 'EPCIS_INVALID_DOCUMENT' })));
    const prefixes = prefixesOf(doc['@context']);
    const incoming: Incoming[] = [];
    const rejected: CaptureProblem[] = [];
    let refused = 0;
    events.forEach((raw, i) => {
      const pointer = `/${path.join('/')}/${i}`;
      // The request's own parsed body, nobody else's: written in place (CBV terms bare, the eventID assigned).
      const event = raw;
      const problems: CaptureProblem[] = [];
      const vocabulary = event && typeof event === 'object' ? normaliseTerms(event as Ev) : [];
      for (const v of vocabulary) problems.push(problem('EPCIS_UNKNOWN_VOCABULARY', { value: v.value }, pointer + v.pointer));
      const named = new Set(problems.map((p) => p.pointer));
      for (const s of eventProblems(event, pointer)) {
        if (!named.has(s.pointer)) problems.push({ ...problem('EPCIS_INVALID_DOCUMENT', { count: 1 }, s.pointer), detail: s.message });
      }
      const ev = event as Ev;
      if (problems.length === 0 && ev.errorDeclaration && typeof ev.eventID !== 'string') problems.push(problem('EPCIS_DECLARATION_WITHOUT_ID', {}, `${pointer}/eventID`));
      if (problems.length) {
        refused++;
        return void rejected.push(...problems);
      }
      delete ev.recordTime; // the repository's own, set when it is stored
      const hash = eventHash(ev, prefixes);
      if (typeof ev.eventID !== 'string') ev.eventID = hash;
      incoming.push({
        pointer, event: ev, eventID: ev.eventID as string, hash,
        ...(ev.errorDeclaration && typeof ev.errorDeclaration === 'object' ? { declaration: ev.errorDeclaration as Ev } : {}),
        ...(ev['@context'] === undefined && doc['@context'] !== undefined ? { context: doc['@context'] as JsonValue } : {}),
      });
    });
    if (rejected.length && behaviour === 'rollback') throw new ApiError('EPCIS_INVALID_DOCUMENT', { count: rejected.length }, rejected.map(detailOf));
    return { incoming, rejected, refused, total: events.length };
  }

  /** Checks and stores a document; the capture job as it ended (a 400 or 413 stores nothing, not even a job). */
  async capture(body: unknown, behaviour: CaptureBehaviour, by: Capturer): Promise<CaptureJob> {
    const { userId } = by;
    const { incoming, rejected, refused, total } = this.check(body, behaviour);
    const id = newId();
    const createdAt = new Date().toISOString();
    return this.exclusive(async (s) => {
      const job: CaptureJob = {
        captureID: id, createdAt, running: true, success: true, captureErrorBehaviour: behaviour, errors: [...rejected],
        counts: { events: total, stored: 0, duplicates: 0, declarations: 0, rejected: refused },
      };
      const tx = this.store.capabilities.transactions;
      // Without transactions the job is written first: one left running marks a capture a crash cut (recoverInterrupted).
      if (!tx) await s.insert(EPCIS_CAPTURES, { ...job, id, createdBy: userId } as unknown as Doc);
      try {
        await this.write(s, id, incoming, job, behaviour, createdAt, by);
      } catch (e) {
        if (!tx) await this.rollBack(s, id);
        throw e;
      }
      const final = { ...job, running: false, success: job.errors.length === 0, finishedAt: new Date().toISOString() };
      const doc = { ...final, id, createdBy: userId } as unknown as Doc;
      await (tx ? s.insert(EPCIS_CAPTURES, doc) : s.update(EPCIS_CAPTURES, id, doc));
      return final;
    });
  }

  /** Runs fn alone among captures: a store transaction, or this process's queue. */
  private exclusive<T>(fn: (s: Store) => Promise<T>): Promise<T> {
    if (this.store.capabilities.transactions) return this.store.transaction(fn);
    const run = this.tail.then(() => fn(this.store));
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Headers already stored with these hashes or eventIDs. */
  private async known(s: Store, field: 'hash' | 'eventID', values: string[]): Promise<Known[]> {
    const out: Known[] = [];
    const unique = [...new Set(values)];
    for (let i = 0; i < unique.length; i += 500) {
      const docs = await s.find(EPCIS_EVENTS, { filter: { [field]: { $in: unique.slice(i, i + 500) } }, projection: { id: 1, hash: 1, eventID: 1, declared: 1, declaration: 1, src: 1, capture: 1 } });
      out.push(...(docs as unknown as Known[]));
    }
    return out;
  }

  /**
   * Whether the caller may declare this stored event in error: an administrator any; anyone else
   * only an event they captured. An operation's own event is the ledger's and the trace's record
   * of what happened: it is corrected through its operation, never rewritten by a capture.
   */
  private async mayDeclare(s: Store, originals: Known[], by: Capturer): Promise<(k: Known) => boolean> {
    if (by.admin) return () => true;
    const captures = [...new Set(originals.filter((k) => !k.src && k.capture).map((k) => k.capture!))];
    const mine = new Set<string>();
    for (let i = 0; i < captures.length; i += 500) {
      const jobs = await s.find(EPCIS_CAPTURES, { filter: { id: { $in: captures.slice(i, i + 500) }, createdBy: by.userId }, projection: { id: 1 } });
      for (const j of jobs) mine.add(j.id);
    }
    return (k) => !k.src && k.capture !== undefined && mine.has(k.capture);
  }

  private async write(s: Store, captureId: string, incoming: Incoming[], job: CaptureJob, behaviour: CaptureBehaviour, now: string, by: Capturer): Promise<void> {
    const byHash = new Map<string, Known>();
    const byId = new Map<string, Known>();
    for (const k of await this.known(s, 'hash', incoming.map((i) => i.hash))) byHash.set(k.hash, k);
    for (const k of await this.known(s, 'eventID', incoming.map((i) => i.eventID))) byId.set(k.eventID, k);
    const mayDeclare = await this.mayDeclare(s, incoming.flatMap((i) => (i.declaration && byId.has(i.eventID) ? [byId.get(i.eventID)!] : [])), by);
    const headers: Doc[] = [];
    const ids: Doc[] = [];
    const declared: { original: Known; declaration: Ev; event: Ev }[] = [];
    const store = (inc: Incoming) => {
      const key = newId();
      const extra: Doc = { capture: captureId, ...(inc.context !== undefined ? { ctx: inc.context } : {}), ...(inc.declaration ? { declaration: inc.declaration as Doc } : {}) };
      const header = headerDoc({ key, event: inc.event, recordTime: now, hash: inc.hash, extra });
      headers.push(header);
      ids.push(...identifierRows(key, inc.event));
      const known: Known = { id: key, hash: inc.hash, eventID: inc.eventID, declared: !!inc.declaration, declaration: inc.declaration, pending: header };
      byHash.set(inc.hash, known);
      byId.set(inc.eventID, known);
    };
    /** An event that conflicts with what is stored: a 409 in the job, counted refused. */
    const refuse = (p: CaptureProblem) => {
      job.errors.push({ ...p, status: 409 });
      job.counts.rejected++;
    };
    for (const inc of incoming) {
      if (inc.declaration) {
        const original = byId.get(inc.eventID);
        if (!original) store(inc); // the event it declares is not here: kept as an event of its own
        else if (!original.pending && !mayDeclare(original)) {
          job.errors.push({ ...problem('EPCIS_DECLARATION_NOT_YOURS', { eventID: inc.eventID }, inc.pointer), type: 'epcisException:SecurityException', title: 'Not allowed', status: 403 });
          job.counts.rejected++;
        } else if (original.declared) {
          if (sameJson(original.declaration, inc.declaration)) job.counts.duplicates++;
          else refuse(problem('EPCIS_ALREADY_DECLARED', { eventID: inc.eventID }, inc.pointer));
        } else {
          original.declared = true;
          original.declaration = inc.declaration;
          if (original.pending) Object.assign(original.pending, { declared: true, declaration: inc.declaration as Doc, declaredBy: captureId });
          else declared.push({ original, declaration: inc.declaration, event: inc.event });
          job.counts.declarations++;
        }
        continue;
      }
      if (byHash.has(inc.hash)) job.counts.duplicates++;
      else if (byId.has(inc.eventID)) refuse(problem('EPCIS_EVENT_ID_TAKEN', { eventID: inc.eventID }, `${inc.pointer}/eventID`));
      else store(inc);
    }
    if (behaviour === 'rollback' && job.errors.length) {
      job.counts = { ...job.counts, stored: 0, duplicates: 0, declarations: 0 };
      return;
    }
    job.counts.stored = headers.length;
    if (headers.length) await s.insertMany(EPCIS_EVENTS, headers);
    // In id order: the rows land in fewer pages of the primary key's B-tree.
    ids.sort((a, b) => ((a.id as string) < (b.id as string) ? -1 : 1));
    for (let i = 0; i < ids.length; i += 5_000) await s.insertMany(EPCIS_IDS, ids.slice(i, i + 5_000));
    for (const d of declared) await s.patch(EPCIS_EVENTS, d.original.id, { declared: true, declaration: d.declaration as Doc, declaredBy: captureId });
    if (declared.length) {
      await s.insertMany(EPCIS_DECLARATIONS, declared.map((d) => ({ eventID: d.original.eventID, event: d.event as Doc, original: d.original.id, capture: captureId, at: now })));
    }
  }

  /** Takes back what a capture wrote (a crash cut it, on a store without transactions). */
  private async rollBack(s: Store, captureId: string): Promise<void> {
    for (const h of await s.find(EPCIS_EVENTS, { filter: { capture: captureId } })) {
      for (const d of idsOfHeader(h)) await s.delete(EPCIS_IDS, d.id as string);
      await s.delete(EPCIS_EVENTS, h.id);
    }
    for (const h of await s.find(EPCIS_EVENTS, { filter: { declaredBy: captureId }, projection: { id: 1 } })) {
      await s.patch(EPCIS_EVENTS, h.id, { declared: undefined, declaration: undefined, declaredBy: undefined });
    }
    for (const d of await s.find(EPCIS_DECLARATIONS, { filter: { capture: captureId }, projection: { id: 1 } })) await s.delete(EPCIS_DECLARATIONS, d.id);
  }

  /** Captures a stopped server left running are taken back and marked failed; returns how many. */
  async recoverInterrupted(): Promise<number> {
    const left = await this.store.find(EPCIS_CAPTURES, { filter: { running: true }, projection: { id: 1 } });
    for (const j of left) {
      await this.rollBack(this.store, j.id);
      await this.store.patch(EPCIS_CAPTURES, j.id, {
        running: false, success: false, finishedAt: new Date().toISOString(),
        errors: [{ type: 'epcisException:ImplementationException', title: 'The capture was interrupted', status: 500, detail: 'The server stopped during the capture; nothing of it was kept', pointer: '', code: 'INTERNAL' }],
      });
    }
    return left.length;
  }

  /** A capture job, to whoever made it or a superadmin; 404 to anyone else, who may not know it exists. */
  async job(id: string, userId: string, admin: boolean): Promise<CaptureJob> {
    const doc = await this.store.get(EPCIS_CAPTURES, id);
    if (!doc || (!admin && doc.createdBy !== userId)) throw new ApiError('EPCIS_CAPTURE_NOT_FOUND', { id: id.slice(0, 60) });
    return presentJob(doc);
  }

  /** The caller's captures (everyone's for a superadmin), newest first. */
  async list(userId: string, admin: boolean, limit: number): Promise<CaptureJob[]> {
    const docs = await this.store.find(EPCIS_CAPTURES, { ...(admin ? {} : { filter: { createdBy: userId } }), sort: { id: -1 }, limit });
    return docs.map(presentJob);
  }
}

export function presentJob(doc: StoredDoc): CaptureJob {
  const { captureID, createdAt, finishedAt, running, success, captureErrorBehaviour, errors, counts } = doc as unknown as CaptureJob;
  return { captureID, createdAt, ...(finishedAt ? { finishedAt } : {}), running, success, captureErrorBehaviour, errors, counts };
}

import { fieldAt, formOf, type Registry, type TransitionDef, type WorkflowDef } from '../../../engine/src/index';
import { getPath } from '../store/docs';
import type { Store } from '../store/types';

type Rec = Record<string, unknown>;

/** A record a transition touches and the workflow governing it: the one asked for, or one a `transitionRecords` effect takes along. */
export interface Touched {
  wf: WorkflowDef;
  record: Rec;
}

/** How many `transitionRecords` levels are read ahead: the operation's records, and theirs (nested operations). */
const LEVELS = 2;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The transition a line's record takes: a literal id, or `$line.<field>` choosing one per line. */
function transitionOf(ref: unknown, line: Rec): string | undefined {
  if (typeof ref !== 'string') return undefined;
  return ref.startsWith('$line.') ? text(getPath(line, ref.slice('$line.'.length))) : ref;
}

/** The lines a `transitionRecords` effect walks: the record's, or the request's when the transition takes them as input. */
function linesFor(t: TransitionDef, field: string, record: Rec, input: Rec | undefined): Rec[] {
  const takes = (t.input ?? []).some((p) => p === field || p.startsWith(`${field}.`));
  const fromInput = takes ? getPath(input ?? {}, field) : undefined;
  const v = Array.isArray(fromInput) ? fromInput : getPath(record, field);
  return Array.isArray(v) ? v.filter((l): l is Rec => !!l && typeof l === 'object' && !Array.isArray(l)) : [];
}

/**
 * The records a transition's `transitionRecords` effects reference, read from the store before
 * planning (the engine does no I/O): by entity then id, as `PlanLookup.records` wants them, and
 * every record touched with its workflow (the one asked for first), so the caller can name their
 * materials, deposits and places. Read one level into each referenced record's own transition.
 */
export async function relatedRecords(reg: Registry, store: Store, wf: WorkflowDef, t: TransitionDef, record: Rec, input?: Rec): Promise<{ records: Record<string, Record<string, Rec>>; touched: Touched[] }> {
  const records: Record<string, Record<string, Rec>> = {};
  const touched: Touched[] = [{ wf, record }];
  const visit = async (owner: WorkflowDef, tr: TransitionDef, rec: Rec, level: number, given?: Rec): Promise<void> => {
    for (const e of tr.effects ?? []) {
      if (e.type !== 'transitionRecords' || !Object.hasOwn(reg.workflows, e.workflow)) continue;
      const child = reg.workflows[e.workflow];
      const lines = linesFor(tr, e.records.field, rec, given).map((line) => ({ line, id: text(getPath(line, e.records.id)) }));
      const known = (records[child.entity] ??= {});
      const ids = [...new Set(lines.flatMap((l) => (l.id && !known[l.id] ? [l.id] : [])))];
      const docs = ids.length ? await store.find(child.entity, { filter: { id: { $in: ids } } }) : [];
      for (const doc of docs) {
        known[doc.id] = doc;
        touched.push({ wf: child, record: doc });
      }
      if (level + 1 >= LEVELS) continue;
      for (const { line, id } of lines) {
        const next = child.transitions.find((x) => x.id === transitionOf(e.transition, line));
        if (id && known[id] && next) await visit(child, next, known[id], level + 1);
      }
    }
  };
  await visit(wf, t, record, 0, input);
  return { records, touched };
}

/**
 * Where referenced records are, by name, for RECORD_NOT_AVAILABLE: the title of what each
 * touched record's `customer` and deposit fields reference (a division's name, a company's).
 */
export async function placesOf(reg: Registry, store: Store, touched: readonly Touched[]): Promise<Record<string, string>> {
  const wanted = new Map<string, Set<string>>();
  for (const { wf, record } of touched.slice(1)) {
    const fields = formOf(reg, wf.entity)?.fields ?? [];
    for (const path of ['customer', ...wf.depositFields]) {
      const ref = fieldAt(fields, path)?.ref;
      const id = text(getPath(record, path));
      if (ref && id && Object.hasOwn(reg.entities, ref)) (wanted.get(ref) ?? wanted.set(ref, new Set()).get(ref)!).add(id);
    }
  }
  const places: Record<string, string> = {};
  for (const [entity, ids] of wanted) {
    const title = reg.entities[entity].titleField;
    for (const doc of await store.find(entity, { filter: { id: { $in: [...ids] } } })) places[doc.id] = text(doc[title]) ?? doc.id;
  }
  return places;
}


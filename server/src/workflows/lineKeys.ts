import { localize, type Lang, type Registry, type WorkflowDef } from '../../../engine/src/index';
import type { Store } from '../store/types';
import { fieldError } from './lines';

type Rec = Record<string, unknown>;

/** A line list whose lines reference records of `entity` by id and by title value (`key`). */
interface KeyedLines {
  field: string;
  id: string;
  key: string;
  entity: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const isRec = (v: unknown): v is Rec => !!v && typeof v === 'object' && !Array.isArray(v);

/** The workflow's `transitionRecords` effects naming a `key`, once per list field. */
function keyedLines(reg: Registry, wf: WorkflowDef): KeyedLines[] {
  const out = new Map<string, KeyedLines>();
  for (const e of wf.transitions.flatMap((t) => t.effects ?? [])) {
    if (e.type !== 'transitionRecords' || !e.records.key || !Object.hasOwn(reg.workflows, e.workflow)) continue;
    out.set(e.records.field, { field: e.records.field, id: e.records.id, key: e.records.key, entity: reg.workflows[e.workflow].entity });
  }
  return [...out.values()];
}

/**
 * A draft's lines completed from what they give: the referenced record's id from its title value
 * (a container line giving only the IBC's serial), and the title value from the id. An unknown
 * value is VALUE_NOT_FOUND (404) naming it; an id that names no record is left to the reference
 * check. The id decides when a line gives both. Returns the body itself when nothing is keyed.
 */
export async function withLineKeys(reg: Registry, store: Store, wf: WorkflowDef, body: unknown, lang: Lang, label: (path: string) => string): Promise<unknown> {
  const keyed = keyedLines(reg, wf);
  if (keyed.length === 0 || !isRec(body)) return body;
  const out: Rec = { ...body };
  for (const k of keyed) {
    const lines = out[k.field];
    if (!Array.isArray(lines)) continue;
    const def = reg.entities[k.entity];
    const title = def.titleField;
    const ids = [...new Set(lines.flatMap((l) => (isRec(l) && text(l[k.id]) ? [text(l[k.id])!] : [])))];
    const keys = [...new Set(lines.flatMap((l) => (isRec(l) && !text(l[k.id]) && text(l[k.key]) ? [text(l[k.key])!] : [])))];
    const [byId, byKey] = await Promise.all([
      ids.length ? store.find(k.entity, { filter: { id: { $in: ids } }, projection: { [title]: 1 } }) : [],
      keys.length ? store.find(k.entity, { filter: { [title]: { $in: keys } }, projection: { [title]: 1 } }) : [],
    ]);
    const titleOf = new Map(byId.map((d) => [d.id, d[title]]));
    const idOf = new Map(byKey.map((d) => [String(d[title]), d.id]));
    out[k.field] = lines.map((l, i) => {
      if (!isRec(l)) return l;
      const id = text(l[k.id]);
      if (id) return titleOf.has(id) ? { ...l, [k.key]: titleOf.get(id) } : l;
      const value = text(l[k.key]);
      if (!value) return l;
      const found = idOf.get(value);
      if (!found) throw fieldError('VALUE_NOT_FOUND', { entity: localize(def.label, lang), label: label(`${k.field}.${k.key}`), value: value.slice(0, 100) }, `${k.field}.${i}.${k.key}`);
      return { ...l, [k.id]: found };
    });
  }
  return out;
}

import { localize, uniqueFieldPaths, type Lang, type Registry } from '../../../engine/src/index';
import { getPath } from '../store/docs';
import type { Store } from '../store/types';
import { fieldError } from './lines';

type Rec = Record<string, unknown>;

/** A record a transition writes: as it was read and as it will be stored. */
export interface Written {
  entity: string;
  id: string;
  before: Rec;
  after: Rec;
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

/**
 * Unique fields a transition sets (an NFC tag mapped to an IBC) must not name another record,
 * stored or written by the same transition: VALUE_TAKEN (409) naming the field, the value and
 * the record holding it. Run where the writes follow, in the same transaction or section.
 */
export async function checkUniqueValues(reg: Registry, store: Store, written: readonly Written[], lang: Lang): Promise<void> {
  for (const w of written) {
    const def = reg.entities[w.entity];
    if (!def) continue;
    for (const path of uniqueFieldPaths(def)) {
      const value = getPath(w.after, path);
      if (blank(value) || JSON.stringify(value) === JSON.stringify(getPath(w.before, path))) continue;
      const twin = written.find((o) => o !== w && o.entity === w.entity && o.id !== w.id && JSON.stringify(getPath(o.after, path)) === JSON.stringify(value));
      const other = twin?.after ?? (await store.find(w.entity, { filter: { [path]: value as never, id: { $ne: w.id } }, limit: 1 }))[0];
      if (!other) continue;
      const field = def.fields.find((f) => f.id === path);
      const title = getPath(other, def.titleField);
      throw fieldError('VALUE_TAKEN', {
        label: field ? localize(field.label, lang) : path, value: String(value), entity: localize(def.label, lang), record: blank(title) ? String(other.id ?? '') : String(title),
      }, path);
    }
  }
}

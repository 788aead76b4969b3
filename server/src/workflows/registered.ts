import { fieldAt, formOf, localize, type Lang, type Registry, type WorkflowDef } from '../../../engine/src/index';
import { getPath } from '../store/docs';
import type { Store } from '../store/types';
import { fieldError } from './lines';

type Rec = Record<string, unknown>;

/** Every value at a dotted path with the path it is at, lists walked (`lines.0.plate`). */
function valuesAt(value: unknown, parts: string[], at: string): { path: string; value: unknown }[] {
  if (parts.length === 0) return [{ path: at, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => valuesAt(v, parts, `${at}.${i}`));
  if (!value || typeof value !== 'object') return [];
  const [head, ...rest] = parts;
  return valuesAt((value as Rec)[head], rest, at ? `${at}.${head}` : head);
}

/**
 * The workflow's `registered` fields must each name an active record of their entity by its key
 * (a bulk delivery's truck by its number): NOT_REGISTERED (400) naming the field otherwise. A blank
 * value is the `required` rule's business. Entities without a state field have every record active.
 */
export async function checkRegistered(reg: Registry, store: Store, wf: WorkflowDef, record: Rec, lang: Lang): Promise<void> {
  for (const r of wf.registered ?? []) {
    const target = reg.entities[r.entity];
    const active = target && fieldAt(target.fields, 'state') ? { state: 1 } : {};
    for (const { path, value } of valuesAt(record, r.field.split('.'), '')) {
      if (value === undefined || value === null || value === '') continue;
      const found = await store.find(r.entity, { filter: { [r.key]: value as never, ...active }, limit: 1, projection: { id: 1 } });
      if (found.length > 0) continue;
      const field = fieldAt(formOf(reg, wf.entity)?.fields ?? [], r.field);
      throw fieldError('NOT_REGISTERED', { label: field ? localize(field.label, lang) : r.field, value: String(value) }, path);
    }
  }
}

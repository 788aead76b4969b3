import { fieldAt, formOf, localize, valuesAt, type Lang, type Registry, type WorkflowDef } from '../../../engine/src/index';
import { getPath } from '../store/docs';
import type { Store } from '../store/types';
import { fieldError } from './lines';

type Rec = Record<string, unknown>;

/**
 * The workflow's `registered` fields must each name an active record of their entity by its key
 * (a bulk delivery's truck by its number): NOT_REGISTERED (400) naming the field otherwise. A blank
 * value is the `required` rule's business. Entities without a state field have every record active.
 */
export async function checkRegistered(reg: Registry, store: Store, wf: WorkflowDef, record: Rec, lang: Lang): Promise<void> {
  for (const r of wf.registered ?? []) {
    const target = reg.entities[r.entity];
    const active = target && fieldAt(target.fields, 'state') ? { state: 1 } : {};
    for (const { path, value } of valuesAt(record, r.field)) {
      if (value === undefined || value === null || value === '') continue;
      const found = await store.find(r.entity, { filter: { [r.key]: value as never, ...active }, limit: 1, projection: { id: 1 } });
      if (found.length > 0) continue;
      const field = fieldAt(formOf(reg, wf.entity)?.fields ?? [], r.field);
      throw fieldError('NOT_REGISTERED', { label: field ? localize(field.label, lang) : r.field, value: String(value) }, path);
    }
  }
}

import { formOf, type FieldDef, type Registry, type WorkflowDef } from '../../../engine/src/index';
import { workflowKeys } from '../../../engine/src/workflow/access';

/**
 * Who may list and read a workflow's records: its own key and the keys listing its read
 * operations (a handheld's getIBC), the keys of the features showing it (a reception screen
 * over deliveries) and of its transitions (a receiver must see what it accepts). Creating and
 * editing drafts stays the workflow's key and the keys listing its draft operations.
 */
export function readersOf(reg: Registry, wf: WorkflowDef): string[] {
  const features = reg.features.features.filter((f) => f.operation?.workflow === wf.name && f.access);
  return [...new Set([...workflowKeys(reg, wf, 'read'), ...features.map((f) => f.access!), ...wf.transitions.map((t) => t.access)])];
}

/** Whether a field list refers to `entity` anywhere (lines and sections included). */
function refersTo(fields: readonly FieldDef[], entity: string): boolean {
  return fields.some((f) => f.ref === entity || (f.fields !== undefined && refersTo(f.fields, entity)));
}

/**
 * Who may read a master-data entity besides its own key: the readers of every workflow whose
 * records point to it, so a staff member who records deliveries can pick their materials and
 * deposits without holding Master Data (writing it still needs that key).
 */
export function pickerReaders(reg: Registry, entity: string): string[] {
  // Master data only: users and groups (a record's history points to its users) stay with their own keys.
  if (reg.entities[entity]?.kind !== 'master') return [];
  const workflows = Object.values(reg.workflows).filter((wf) => refersTo(formOf(reg, wf.entity)?.fields ?? [], entity));
  return [...new Set(workflows.flatMap((wf) => readersOf(reg, wf)))];
}

import type { AccessDef } from '../types';
import type { TransitionDef, WorkflowDefinition } from './types';

/** The access keys, mobile feature keys among them, that list backend operations (schemas/access.json). */
type OperationKeys = Pick<AccessDef, 'keys'>;

/**
 * The keys granting any of `operations` (backend operation keys, SPEC 7): every access key and
 * mobile feature key whose `operations` name one of them, once each. No operation, no key.
 */
export function keysGranting(access: OperationKeys, operations: readonly string[] | undefined): string[] {
  if (!operations?.length) return [];
  const wanted = new Set(operations);
  const keys = access.keys
    .filter((k) => k.operations?.some((o) => wanted.has(o)))
    .map((k) => k.key);
  return [...new Set(keys)];
}

/** Who may take a transition: its own key, or a key listing one of its operations. */
export function transitionKeys(reg: { access: OperationKeys }, t: Pick<TransitionDef, 'access' | 'operations'>): string[] {
  return [...new Set([t.access, ...keysGranting(reg.access, t.operations)])];
}

/**
 * Who may use a workflow's routes of one kind (`read`: list and read records; `draft`: create
 * and edit drafts): its own key, or a key listing one of that kind's operations.
 */
export function workflowKeys(reg: { access: OperationKeys }, wf: Pick<WorkflowDefinition, 'access' | 'operations'>, kind: 'read' | 'draft'): string[] {
  return [...new Set([wf.access, ...keysGranting(reg.access, wf.operations?.[kind])])];
}

import { resolveGoTo, type FieldDef, type Principal, type Registry, type RouteEntry } from '../../../engine/src/index';
import type { GoToPayload } from '../frame/messages';
import { mayOpenEntity } from '../masterdata/catalogue';

/**
 * Where a value of a record links to in another feature, posted to the shell as goTo: a
 * reference opens its record in master data, a batch its lot's traceability, when this
 * user may open them; otherwise null and the value is plain text.
 */
export function goToFor(
  ctx: { registry: Registry; principal: Principal; allowed: RouteEntry[] },
  field: FieldDef | undefined,
  value: unknown,
  isBatch = false,
): GoToPayload | null {
  if (typeof value !== 'string' || !value) return null;
  if (isBatch) return resolveGoTo(ctx.allowed, 'lot') ? { type: 'lot', query: { lot: value } } : null;
  if (field?.type !== 'reference' || !field.ref || field.multiple) return null;
  if (!resolveGoTo(ctx.allowed, 'masterdata') || !mayOpenEntity(ctx.registry, ctx.principal, field.ref)) return null;
  return { type: 'masterdata', query: { entity: field.ref, id: value } };
}

import { resolveGoTo, type Registry, type ReportColumnDef, type RouteEntry } from '../../../engine/src/index';
import { getPath } from '../../../engine/src/validate/values';
import type { GoToPayload } from '../frame/messages';

/** Whether a row meets a conditional action's `when`: each path equals the value given, or is one of the values of a list. */
export function actionApplies(when: Record<string, unknown> | undefined, row: Record<string, unknown>): boolean {
  return Object.entries(when ?? {}).every(([path, want]) => {
    const v = getPath(row, path);
    return Array.isArray(want) ? want.includes(v) : v === want;
  });
}

/**
 * The feature that shows a workflow's records: the one listing all its states (not a work
 * tray), else any, among those this user may open.
 */
export function featureOfWorkflow(registry: Registry, allowed: RouteEntry[], workflow: string): string | null {
  const open = registry.features.features.filter((f) => f.operation?.workflow === workflow && resolveGoTo(allowed, f.id));
  return (open.find((f) => !f.operation?.states) ?? open[0])?.id ?? null;
}

/**
 * Where a conditional_action cell links: its record opened in the feature of the action's
 * workflow (the operation, or the IBC in the IBC inventory), posted to the shell as goTo with
 * `?id=` as the operation screens read it; null when the row does not meet `when`, has no id,
 * or this user may open no such feature (the value is then plain text).
 */
export function actionGoTo(
  ctx: { registry: Registry; allowed: RouteEntry[] },
  action: ReportColumnDef['action'],
  row: Record<string, unknown>,
): GoToPayload | null {
  if (!action || !actionApplies(action.when, row)) return null;
  const id = getPath(row, action.idField);
  if ((typeof id !== 'string' && typeof id !== 'number') || id === '') return null;
  const feature = featureOfWorkflow(ctx.registry, ctx.allowed, action.workflow);
  return feature ? { type: feature, query: { id: String(id) } } : null;
}

/** The print view of a report with these filters: the feature showing reports print-ready (/generate-report), handed the report and its address query. */
export function printGoTo(ctx: { registry: Registry; allowed: RouteEntry[] }, key: string, search: string): GoToPayload | null {
  const feature = ctx.registry.features.features.find((f) => f.report?.view === 'print' && resolveGoTo(ctx.allowed, f.id));
  return feature ? { type: feature.id, query: { report: key, ...Object.fromEntries(new URLSearchParams(search)) } } : null;
}

/** The print view's address from the query the shell hands on (`?report=<key>&<filters>`): `/<key>?<filters>`, or null without a report. */
export function printPathOf(search: string): string | null {
  const p = new URLSearchParams(search);
  const key = p.get('report');
  if (!key) return null;
  p.delete('report');
  const rest = p.toString();
  return `/${encodeURIComponent(key)}${rest ? `?${rest}` : ''}`;
}

/**
 * Stand-in for engine/src/reports (CONTRACT17 §2) until it is on main: the same signatures,
 * so swapping it for the engine's exports is an import change. Nothing here is the screen's own logic.
 */
import { localize, type Lang, type Registry, type ReportColumnDef, type ReportDef } from '../../../engine/src/index';
import { getPath } from '../../../engine/src/validate/values';

/** A report column as a cell reads it: serializable, labels in one language. */
export interface CellColumn {
  id: string;
  label: string;
  type: ReportColumnDef['type'];
  field: string;
  subField?: string;
  /** status: state id → label in the column's language. */
  states?: Record<string, string>;
  action?: ReportColumnDef['action'];
  lang: Lang;
}

/** The registry's reports (sanitised ReportDef by key); empty until the engine loads them. */
export function reportsOf(reg: Registry): Record<string, ReportDef> {
  return (reg as Registry & { reports?: Record<string, ReportDef> }).reports ?? {};
}

export function reportColumns(reg: Registry, def: ReportDef, lang: Lang): CellColumn[] {
  return def.columns.map((c) => {
    const wf = c.type === 'status' ? reg.workflows[c.workflow ?? def.statusOf ?? ''] : undefined;
    return {
      id: c.id, label: localize(c.label, lang), type: c.type, field: c.field, subField: c.subField, action: c.action, lang,
      ...(wf ? { states: Object.fromEntries(wf.states.map((s) => [s.id, localize(s.label, lang)])) } : {}),
    };
  });
}

function scalarText(v: unknown, lang: Lang): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' && !Array.isArray(v) && 'en' in (v as object)) return localize(v as Record<Lang, string>, lang);
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function years(from: string, now = new Date()): string {
  const d = new Date(from);
  if (Number.isNaN(d.getTime())) return '';
  let y = now.getUTCFullYear() - d.getUTCFullYear();
  if (now.getUTCMonth() < d.getUTCMonth() || (now.getUTCMonth() === d.getUTCMonth() && now.getUTCDate() < d.getUTCDate())) y -= 1;
  return String(y);
}

export function cellText(col: CellColumn, row: Record<string, unknown>): string {
  const v = getPath(row, col.field);
  if (v === null || v === undefined) return '';
  switch (col.type) {
    case 'date_text': return typeof v === 'string' ? v.slice(0, 10) : scalarText(v, col.lang);
    case 'age': return typeof v === 'string' ? years(v) : '';
    case 'array': return (Array.isArray(v) ? v : [v]).map((e) => scalarText(col.subField ? getPath(e, col.subField) : e, col.lang)).filter(Boolean).join('; ');
    case 'object':
      if (col.subField) return scalarText(getPath(v, col.subField), col.lang);
      return typeof v === 'object' ? Object.entries(v as object).map(([k, x]) => `${k}: ${scalarText(x, col.lang)}`).join('; ') : scalarText(v, col.lang);
    case 'status': return typeof v === 'string' ? col.states?.[v] ?? v : scalarText(v, col.lang);
    default: return scalarText(v, col.lang);
  }
}

/**
 * The IBC fleet screens' pure parts: how measures read (days with one decimal, rates as
 * percentages, the fill-count bars), the fleet list filters as the list query, and the
 * ADR dates of one IBC (age, and whether an inspection or end of life is near or past).
 */
import type { HistoryEntry } from '../../../engine/src/workflow/types';
import type { FleetMeasures, IbcEvent, OperationQuery } from './api';

/** Days as shown: one decimal; an absent measure is a dash. */
export function days(n: number | null | undefined): string {
  return typeof n === 'number' && Number.isFinite(n) ? n.toFixed(1) : '—';
}

/** A share (0..1) as a percentage with one decimal. */
export function percent(n: number | null | undefined): string {
  return typeof n === 'number' && Number.isFinite(n) ? `${(n * 100).toFixed(1)} %` : '—';
}

/** A plain number as shown: one decimal when it has a fraction. */
export function figure(n: number | null | undefined): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '—';
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** A date or date-time as YYYY-MM-DD (the calendar day it names as written). */
export function isoDay(v: unknown): string {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : '';
}

export interface Bar {
  key: string;
  label: string;
  count: number;
  /** The bar's length against the longest, 0..100. */
  width: number;
}

/** Counts as bars scaled to the largest (a zero count keeps a zero-width bar). */
export function bars(rows: readonly { key: string; label: string; count: number }[]): Bar[] {
  const max = Math.max(0, ...rows.map((r) => r.count));
  return rows.map((r) => ({ ...r, width: max > 0 ? Math.round((r.count / max) * 1000) / 10 : 0 }));
}

/** The fill-count distribution in order of uses. */
export function fillCountBars(m: Pick<FleetMeasures, 'fillCountDistribution'>): Bar[] {
  return bars([...m.fillCountDistribution].sort((a, b) => a.uses - b.uses).map((r) => ({ key: String(r.uses), label: String(r.uses), count: r.count })));
}

/** The fleet by status, in the workflow's order of states (labels given), unknown states last. */
export function statusBars(m: Pick<FleetMeasures, 'byStatus'>, states: readonly { id: string; label: string }[]): Bar[] {
  const known = states.filter((s) => s.id in m.byStatus).map((s) => ({ key: s.id, label: s.label, count: m.byStatus[s.id] }));
  const other = Object.keys(m.byStatus).filter((k) => !states.some((s) => s.id === k)).map((k) => ({ key: k, label: k, count: m.byStatus[k] }));
  return bars([...known, ...other]);
}

/** The fleet list's own filters: a customer holding the IBCs, fill count and age in years. */
export interface FleetFilters {
  customer: string | null;
  usesMin: string;
  usesMax: string;
  ageMin: string;
  ageMax: string;
}

export const NO_FLEET_FILTERS: FleetFilters = { customer: null, usesMin: '', usesMax: '', ageMin: '', ageMax: '' };

/** A typed bound: a whole number at or above zero (a fraction is cut), else nothing (a half-typed or negative value does not filter). */
function bound(text: string): number | undefined {
  const t = text.trim().replace(',', '.');
  if (t === '') return undefined;
  const n = Number(t);
  if (!Number.isFinite(n) || n < 0) return undefined;
  return Math.floor(n);
}

/** The fleet filters as the list query (customer, usesMin/usesMax, ageMin/ageMax in whole years, as the route takes them); swapped bounds are put in order. */
export function fleetQuery(f: FleetFilters): Pick<OperationQuery, 'customer' | 'usesMin' | 'usesMax' | 'ageMin' | 'ageMax'> {
  const pair = (lo: number | undefined, hi: number | undefined) => (lo !== undefined && hi !== undefined && lo > hi ? [hi, lo] : [lo, hi]);
  const [usesMin, usesMax] = pair(bound(f.usesMin), bound(f.usesMax));
  const [ageMin, ageMax] = pair(bound(f.ageMin), bound(f.ageMax));
  return { customer: f.customer ?? undefined, usesMin, usesMax, ageMin, ageMax };
}

const DAY_MS = 86_400_000;
const utcDay = (iso: string) => Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)));

/** Whole years from a manufacture date to today (both YYYY-MM-DD); null without a date. */
export function ageYears(manufactured: unknown, today: string): number | null {
  const m = isoDay(manufactured);
  if (!m) return null;
  let y = Number(today.slice(0, 4)) - Number(m.slice(0, 4));
  if (today.slice(5, 10) < m.slice(5, 10)) y -= 1;
  return Math.max(0, y);
}

export type DateAlert = 'past' | 'soon' | null;

/** An ADR date against today: past, within `alertDaysBefore` days (today included), or neither. */
export function dateAlert(date: unknown, today: string, alertDaysBefore: number): DateAlert {
  const d = isoDay(date);
  if (!d) return null;
  const left = (utcDay(d) - utcDay(today)) / DAY_MS;
  if (left < 0) return 'past';
  return left <= alertDaysBefore ? 'soon' : null;
}

/** Today as YYYY-MM-DD in the reader's calendar. */
export function localToday(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

/** The log whose rows GET /api/v3/ibc/:id/events serves: a workflow logging to it is the IBC's. */
export const IBC_EVENT_LOG = 'ibc_event';

/** The IBC's ADR dates, highlighted when near or past, and the date its age is counted from. */
export const ADR_DATE_FIELDS: readonly string[] = ['nextInspectionDate', 'endOfLife'];
export const MANUFACTURE_FIELD = 'manufactured_date';

/** `settings.ibc.alertDaysBefore` of the deployment; without the IBC settings only past dates are highlighted. */
export function alertDaysBefore(settings: object): number {
  const v = (settings as { ibc?: { alertDaysBefore?: unknown } }).ibc?.alertDaysBefore;
  return typeof v === 'number' && v >= 0 ? v : 0;
}

/** Who took a logged step: the name the record's history kept for the same transition at the same instant (a row and its entry are written together), else the user id. */
export function byNameOf(history: readonly HistoryEntry[], e: Pick<IbcEvent, 'transition' | 'at' | 'by'>): string {
  return history.find((h) => h.at === e.at && h.transition === e.transition)?.byName || e.by || '';
}

import type { DayRange, DayToken } from './types';

const DAY_MS = 86_400_000;
const TOKEN = /^(today|startOfWeek|startOfMonth|startOfYear)(?:([+-])(\d{1,4})([dwmy]))?$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a string is a real calendar day, YYYY-MM-DD. */
export function isIsoDay(s: string): boolean {
  if (!ISO_DAY.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

const utc = (day: string) => new Date(`${day}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);

/** The day `months` months after `day`, kept within its month's length (Mar 31 − 1m → Feb 28). */
function addMonths(day: string, months: number): string {
  const d = utc(day);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return iso(target);
}

/** Monday of the week `day` is in (weeks start on Monday, ISO 8601). */
export function mondayOf(day: string): string {
  const d = utc(day);
  return iso(new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY_MS));
}

/** Whether a definition's day is one resolveDay understands. */
export function isDayToken(s: string): boolean {
  return isIsoDay(s) || TOKEN.test(s);
}

/**
 * A definition's day as YYYY-MM-DD, `today` being the current day (YYYY-MM-DD, UTC on the
 * server, the browser's on screen): `startOfMonth-1m` is the first of last month, `today-30d`
 * thirty days ago. A literal day is itself. Throws on anything else (the registry checked it).
 */
export function resolveDay(token: DayToken, today: string): string {
  if (isIsoDay(token)) return token;
  const m = TOKEN.exec(token);
  if (!m) throw new Error(`not a day: ${token}`);
  const [, anchor, sign, n, unit] = m;
  let day = today;
  if (anchor === 'startOfWeek') day = mondayOf(today);
  else if (anchor === 'startOfMonth') day = `${today.slice(0, 7)}-01`;
  else if (anchor === 'startOfYear') day = `${today.slice(0, 4)}-01-01`;
  if (!sign) return day;
  const k = (sign === '-' ? -1 : 1) * Number(n);
  if (unit === 'd' || unit === 'w') return iso(new Date(utc(day).getTime() + k * (unit === 'w' ? 7 : 1) * DAY_MS));
  return addMonths(day, unit === 'm' ? k : 12 * k);
}

/** A range of definition days resolved (either end may be open). */
export function resolveRange(range: DayRange, today: string): { from?: string; to?: string } {
  return { ...(range.from !== undefined ? { from: resolveDay(range.from, today) } : {}), ...(range.to !== undefined ? { to: resolveDay(range.to, today) } : {}) };
}

/** The current UTC day of a clock. */
export function dayOf(now: Date): string {
  return iso(now);
}

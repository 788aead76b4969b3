import type { JsonValue } from '../store/types';

const DAY_MS = 86_400_000;
const day = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? Date.parse(`${v.slice(0, 10)}T00:00:00Z`) : NaN);

/**
 * An IBC's QC lead time (SPEC 3.5 qcLeadTime): whole days from the day it came back (`returnedAt`,
 * set by the `return` transition) to the day of its QC (`qcDate`); none before its first QC after
 * a return, or when the QC is dated before the return (a QC of an earlier cycle).
 */
export function qcLeadTimePatch(rec: Record<string, unknown>): Record<string, JsonValue | undefined> | null {
  const [returned, qc] = [day(rec.returnedAt), day(rec.qcDate)];
  const want = Number.isFinite(returned) && Number.isFinite(qc) && qc >= returned ? Math.round((qc - returned) / DAY_MS) : undefined;
  return rec.qcLeadTime === want ? null : { qcLeadTime: want };
}

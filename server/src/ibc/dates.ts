import { isStoreError, type Doc, type JsonValue, type Store } from '../store/types';
import type { IbcSettings } from '../../../engine/src/index';

/** The master entity of IBCs and the material types whose service life ADR 4.1.1.15 limits. */
export const IBC_ENTITY = 'ibc_container';
/** The workflow of an IBC's life cycle (schemas/workflows/ibc.json). */
export const IBC_WORKFLOW = 'ibc';
const LIMITED_LIFE = new Set(['rigid_plastic', 'composite']);

const DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/** `YYYY-MM-DD` plus whole months; a day past the new month's end becomes its last day (31 Aug + 6 months = 28/29 Feb). */
export function addMonths(date: string, months: number): string | undefined {
  const m = DATE.exec(date);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1 + months, Number(m[3])];
  const last = new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();
  const out = new Date(Date.UTC(y, mo, Math.min(d, last)));
  return Number.isNaN(out.getTime()) ? undefined : out.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` of an instant plus whole days (UTC). */
export function dayOf(at: Date, plusDays = 0): string {
  return new Date(at.getTime() + plusDays * 86_400_000).toISOString().slice(0, 10);
}

export interface AdrDates {
  nextInspectionDate?: string;
  endOfLife?: string;
}

/**
 * An IBC's ADR dates: the next periodic inspection (from the last one, else from manufacture)
 * and, for rigid plastic and composite IBCs, the end of life. Without a manufacture date, none.
 * A record without `material_type` (registered before the field existed) is rigid plastic, the
 * field's default.
 */
export function adrDates(rec: Record<string, unknown>, s: IbcSettings): AdrDates {
  const made = typeof rec.manufactured_date === 'string' ? rec.manufactured_date : '';
  if (!DATE.test(made)) return {};
  const last = typeof rec.lastInspectionDate === 'string' && DATE.test(rec.lastInspectionDate) ? rec.lastInspectionDate : made;
  const out: AdrDates = {};
  const next = addMonths(last, s.inspectionIntervalMonths);
  if (next) out.nextInspectionDate = next;
  const material = typeof rec.material_type === 'string' && rec.material_type ? rec.material_type : 'rigid_plastic';
  const end = LIMITED_LIFE.has(material) ? addMonths(made, s.lifetimeYears * 12) : undefined;
  if (end) out.endOfLife = end;
  return out;
}

/** The patch that brings a record's stored dates in line (undefined removes one), or null when they are. */
export function adrPatch(rec: Record<string, unknown>, s: IbcSettings): Record<string, JsonValue | undefined> | null {
  const want = adrDates(rec, s);
  const patch: Record<string, JsonValue | undefined> = {};
  for (const k of ['nextInspectionDate', 'endOfLife'] as const) if (rec[k] !== want[k]) patch[k] = want[k];
  return Object.keys(patch).length ? patch : null;
}

const PAGE = 5_000;

/**
 * Recomputes the ADR dates of every IBC and stores those that changed (a manufacture or last
 * inspection date written by master data, an import or a QC since the last pass, or new
 * settings); returns how many changed. Keyset pages, so memory stays flat on a large fleet.
 */
export async function refreshAdrDates(store: Store, s: IbcSettings): Promise<number> {
  let after: Doc | undefined;
  let changed = 0;
  for (;;) {
    const page = await store.find(IBC_ENTITY, {
      sort: { id: 1 }, limit: PAGE, ...(after ? { after } : {}),
      projection: { manufactured_date: 1, lastInspectionDate: 1, material_type: 1, nextInspectionDate: 1, endOfLife: 1 },
    });
    const patches = page.map((rec) => ({ id: rec.id, patch: adrPatch(rec, s) })).filter((p) => p.patch !== null);
    // One commit a page where the store has transactions, not one an IBC.
    const write = async (w: Store) => {
      for (const p of patches) {
        // Gone meanwhile (a hard delete): nothing to date.
        await w.patch(IBC_ENTITY, p.id, p.patch!).catch((e: unknown) => { if (!isStoreError(e, 'NOT_FOUND')) throw e; });
      }
    };
    if (patches.length) await (store.capabilities.transactions ? store.transaction(write) : write(store));
    changed += patches.length;
    if (page.length < PAGE) return changed;
    after = { id: page[page.length - 1].id };
  }
}

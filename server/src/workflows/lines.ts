import { fieldAt, formOf, localize, type ErrorCode, type Lang, type LinesDef, type Registry, type WorkflowDef } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import { getPath } from '../store/docs';
import type { Store } from '../store/types';

type Rec = Record<string, unknown>;

/** An error about one field of the record: the field named in the details, with the message. */
export function fieldError(code: ErrorCode, params: Rec, field: string): ApiError {
  const e = new ApiError(code, params);
  return new ApiError(code, e.params, [{ field, message: e.message, code }]);
}

/** The product lines of a record: the list at `lines.field`, or the record itself for `.`. */
export function linesOf(record: Rec, lines: LinesDef): Rec[] {
  if (lines.field === '.') return [record];
  const v = getPath(record, lines.field);
  return Array.isArray(v) ? v.filter((l): l is Rec => !!l && typeof l === 'object') : [];
}

/** The transitions leaving the initial state: what a draft must be ready for. */
function fromInitial(wf: WorkflowDef) {
  return wf.transitions.filter((t) => t.from.includes(wf.initial));
}

/**
 * The line sets a draft must hold good lines in: the workflow's, and those its first
 * transitions' stock effects walk (a declaration's consumption). Those whose stock leaves
 * (a delivery, a scrapping, the consumed ingredients) name batches that must exist; those
 * bringing stock in name new ones.
 */
function draftLines(wf: WorkflowDef): { lines: LinesDef; existing: boolean }[] {
  const sets = new Map<string, { lines: LinesDef; existing: boolean }>();
  if (wf.lines) sets.set(wf.lines.field, { lines: wf.lines, existing: false });
  for (const e of fromInitial(wf).flatMap((t) => t.effects ?? [])) {
    if (e.type !== 'addStock' && e.type !== 'removeStock' && e.type !== 'moveStock') continue;
    const lines = e.lines ?? wf.lines;
    if (!lines) continue;
    const taken = e.type !== 'addStock';
    const known = sets.get(lines.field);
    sets.set(lines.field, { lines, existing: taken || (known?.existing ?? false) });
  }
  return [...sets.values()];
}

/** The deposit fields a draft's first transitions happen at: the user's selected warehouse must hold them. */
export function draftDepositFields(wf: WorkflowDef): string[] {
  return [...new Set(fromInitial(wf).flatMap((t) => (t.at ? [t.at] : [])))];
}

export class LineChecks {
  constructor(private readonly reg: Registry, private readonly store: Store) {}

  label(wf: WorkflowDef, path: string, lang: Lang): string {
    const f = fieldAt(formOf(this.reg, wf.entity)!.fields, path);
    return f ? localize(f.label, lang) : path;
  }

  /** What a material is called, or its id. */
  private async materialName(id: string): Promise<{ name: string; uom: unknown } | null> {
    const m = await this.store.get('material', id);
    return m ? { name: typeof m.name === 'string' ? m.name : id, uom: m.uom } : null;
  }

  /** A division's name, or its id. */
  async divisionName(id: string): Promise<string> {
    const d = await this.store.get('company_division', id);
    return d && typeof d.division_name === 'string' ? d.division_name : id;
  }

  /**
   * The body with each line's unit taken from its material where the line names none: the
   * unit is the material's (a units_of_measurement id), not something to type. A unit given is
   * kept, so one that differs still fails the check with UNIT_MISMATCH.
   */
  async withUnits(wf: WorkflowDef, body: unknown): Promise<unknown> {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
    const out: Rec = { ...(body as Rec) };
    for (const { lines: def } of draftLines(wf)) {
      if (!def.unit || def.unit.includes('.') || def.field.includes('.')) continue;
      const fill = async (line: unknown): Promise<unknown> => {
        if (!line || typeof line !== 'object' || Array.isArray(line)) return line;
        const l = line as Rec;
        const materialId = l[def.material];
        if ((l[def.unit!] !== undefined && l[def.unit!] !== null && l[def.unit!] !== '') || typeof materialId !== 'string') return line;
        const uom = (await this.materialName(materialId))?.uom;
        return typeof uom === 'string' && uom ? { ...l, [def.unit!]: uom } : line;
      };
      if (def.field === '.') Object.assign(out, await fill(out));
      else if (Array.isArray(out[def.field])) out[def.field] = await Promise.all((out[def.field] as unknown[]).map(fill));
    }
    return out;
  }

  /**
   * The lines of a draft (draftLines): quantities above 0, the unit of each line its
   * material's, the batches of stock leaving known lots. Throws 400 on the first problem, naming its field.
   */
  async check(wf: WorkflowDef, record: Rec, lang: Lang): Promise<void> {
    for (const { lines, existing } of draftLines(wf)) await this.checkLines(wf, lines, existing, record, lang);
  }

  private async checkLines(wf: WorkflowDef, def: LinesDef, existing: boolean, record: Rec, lang: Lang): Promise<void> {
    const lines = linesOf(record, def);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const at = (f: string) => (def.field === '.' ? f : `${def.field}.${i}.${f}`);
      const labelOf = (f: string) => this.label(wf, def.field === '.' ? f : `${def.field}.${f}`, lang);
      const fail = (f: string, code: ErrorCode, params: Rec) => fieldError(code, { label: labelOf(f), ...params }, at(f));
      const quantity = getPath(line, def.quantity);
      if (typeof quantity === 'number' && !(quantity > 0)) throw fail(def.quantity, 'QUANTITY_NOT_POSITIVE', { value: quantity });
      const materialId = getPath(line, def.material);
      if (typeof materialId !== 'string') continue;
      const material = await this.materialName(materialId);
      if (!material) throw fail(def.material, 'FORMAT_REFERENCE_NOT_FOUND', { type: 'material', value: materialId });
      const unit = def.unit ? getPath(line, def.unit) : undefined;
      if (typeof unit === 'string' && unit && typeof material.uom === 'string' && material.uom && unit !== material.uom) {
        throw fail(def.unit!, 'UNIT_MISMATCH', { unit, material: material.name, expected: material.uom });
      }
      const batch = getPath(line, def.batch);
      if (existing && typeof batch === 'string' && batch) {
        const lot = await this.store.find('lot', { filter: { material: materialId, number: batch }, limit: 1, projection: { id: 1 } });
        if (lot.length === 0) throw fail(def.batch, 'UNKNOWN_BATCH', { batch, material: material.name });
      }
    }
  }

  /** Every named deposit field of the record must be a division of the selected warehouse group. */
  async checkDeposits(wf: WorkflowDef, record: Rec, fields: readonly string[], warehouse: { name: string; divisions: ReadonlySet<string> } | null, lang: Lang): Promise<void> {
    if (!warehouse) return;
    for (const f of fields) {
      const v = getPath(record, f);
      if (typeof v !== 'string' || !v || warehouse.divisions.has(v)) continue;
      throw fieldError('DEPOSIT_OUTSIDE_WAREHOUSE', { label: this.label(wf, f, lang), deposit: await this.divisionName(v), warehouse: warehouse.name }, f);
    }
  }
}

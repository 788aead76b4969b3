/**
 * Which CSV columns an entity accepts, how a header names one, and which columns an import
 * cannot do without. Derived from the definition (entity fields + enabled extensions), so a
 * new field is importable with no code.
 *
 * A column is one of:
 * - `value`: a scalar field, or a multiple scalar field as one comma-separated cell;
 * - `rows`: a whole list of rows (material, quantity, uom…) as one JSON cell;
 * - `rowCell`: one cell of row N of a list of rows, headed `path.N.sub` (N from 1).
 */
import { formOf, localize, type FieldDef, type Lang, type Registry } from '../../../engine/src/index';

export type ColumnTarget =
  | { kind: 'value'; path: string; field: FieldDef }
  | { kind: 'rows'; path: string; field: FieldDef }
  | { kind: 'rowCell'; path: string; field: FieldDef; list: FieldDef; index: number; sub: string };

/** A field a column can fill, with the label chains a header may use instead of its path. */
interface Slot {
  path: string;
  field: FieldDef;
  kind: 'value' | 'rows';
  /** Label chains per language: "Agrochemical product > ERP ID". */
  chain: Record<Lang, string>;
  /** Sub-fields of a list of rows: dotted sub path → field and labels. */
  subs?: { sub: string; field: FieldDef; chain: Record<Lang, string> }[];
}

export interface ColumnCatalogue {
  entity: string;
  slots: Slot[];
  /** The header of the extra column the error file adds; ignored when a fixed file comes back. */
  errorColumn: string;
  importKeys: readonly string[];
  fields: FieldDef[];
  match(header: string): ColumnTarget | 'ambiguous' | undefined;
}

export const ERROR_COLUMN = 'Import errors';
/** The languages a header may be written in (a label missing in one reads as its English). */
const LANGS: readonly Lang[] = ['en', 'es', 'fr'];
/** Derived or binary fields have no place in a CSV file. */
const importable = (f: FieldDef) => !f.preview && f.type !== 'file';

/** Case-, accent- and spacing-insensitive form of a header or label. */
export function normalizeHeader(s: string): string {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s*>\s*/g, ' > ').replace(/\s+/g, ' ').trim();
}

function chainOf(parent: Record<Lang, string> | undefined, f: FieldDef): Record<Lang, string> {
  const out = {} as Record<Lang, string>;
  for (const l of LANGS) out[l] = parent && parent[l] ? `${parent[l]} > ${localize(f.label, l)}` : localize(f.label, l);
  return out;
}

function collectSlots(fields: readonly FieldDef[], prefix: string, parent: Record<Lang, string> | undefined, out: Slot[]): void {
  for (const f of fields) {
    if (!importable(f)) continue;
    const path = prefix ? `${prefix}.${f.id}` : f.id;
    // The `extensions` wrapper is storage, not something people name: its children start the chain.
    const chain = f.id === 'extensions' && !prefix ? undefined : chainOf(parent, f);
    if (f.type === 'object' && f.fields && !f.multiple) {
      collectSlots(f.fields, path, chain, out);
    } else if (f.type === 'object' && f.fields) {
      const subs: NonNullable<Slot['subs']> = [];
      const walk = (fs: readonly FieldDef[], p: string, c: Record<Lang, string> | undefined) => {
        for (const s of fs) {
          if (!importable(s)) continue;
          const sub = p ? `${p}.${s.id}` : s.id;
          const sc = chainOf(c, s);
          if (s.type === 'object' && s.fields && !s.multiple) walk(s.fields, sub, sc);
          else subs.push({ sub, field: s, chain: sc });
        }
      };
      walk(f.fields, '', undefined);
      out.push({ path, field: f, kind: 'rows', chain: chain!, subs });
    } else {
      out.push({ path, field: f, kind: 'value', chain: chain! });
    }
  }
}

const catalogues = new WeakMap<Registry, Map<string, ColumnCatalogue>>();

export function columnCatalogue(reg: Registry, entity: string): ColumnCatalogue {
  let byEntity = catalogues.get(reg);
  if (!byEntity) catalogues.set(reg, (byEntity = new Map()));
  const hit = byEntity.get(entity);
  if (hit) return hit;
  const form = formOf(reg, entity)!;
  const slots: Slot[] = [];
  collectSlots(form.fields, '', undefined, slots);

  // Every name a slot answers to; a name two slots share is ambiguous and must be qualified.
  const names = new Map<string, Slot | 'ambiguous'>();
  const add = (name: string, slot: Slot) => {
    const k = normalizeHeader(name);
    const prev = names.get(k);
    names.set(k, prev === undefined || prev === slot ? slot : 'ambiguous');
  };
  for (const s of slots) add(s.path, s);
  for (const s of slots) for (const l of LANGS) add(s.chain[l], s);
  // Bare field labels ("ERP ID") last, so they never shadow a path or a full chain.
  const bare = new Map<string, Slot | 'ambiguous'>();
  for (const s of slots) {
    for (const l of LANGS) {
      const k = normalizeHeader(localize(s.field.label, l));
      if (names.has(k) && names.get(k) !== s) continue;
      const prev = bare.get(k);
      bare.set(k, prev === undefined || prev === s ? s : 'ambiguous');
    }
  }
  for (const [k, v] of bare) if (!names.has(k)) names.set(k, v);

  const subOf = (slot: Slot, name: string) => {
    const k = normalizeHeader(name);
    return slot.subs?.find((s) => normalizeHeader(s.sub) === k || LANGS.some((l) => normalizeHeader(s.chain[l]) === k));
  };
  const rowCell = (slot: Slot | 'ambiguous' | undefined, index: string, subName: string): ColumnTarget | 'ambiguous' | undefined => {
    if (slot === 'ambiguous') return 'ambiguous';
    if (!slot || slot.kind !== 'rows') return undefined;
    const n = Number(index);
    const sub = subOf(slot, subName);
    if (!sub || !Number.isInteger(n) || n < 1 || n > 1000) return undefined;
    return { kind: 'rowCell', path: slot.path, list: slot.field, field: sub.field, index: n - 1, sub: sub.sub };
  };

  const catalogue: ColumnCatalogue = {
    entity,
    slots,
    errorColumn: ERROR_COLUMN,
    importKeys: reg.entities[entity].importKeys,
    fields: form.fields,
    match(header) {
      const k = normalizeHeader(header);
      if (!k) return undefined;
      const direct = names.get(k);
      if (direct === 'ambiguous') return 'ambiguous';
      if (direct) return { kind: direct.kind, path: direct.path, field: direct.field } as ColumnTarget;
      // "path.N.sub": try every numeric segment as the row index.
      const segs = k.split('.');
      for (let i = 1; i < segs.length - 1; i++) {
        if (!/^\d+$/.test(segs[i])) continue;
        const found = rowCell(names.get(segs.slice(0, i).join('.')), segs[i], segs.slice(i + 1).join('.'));
        if (found) return found;
      }
      // "List label N > Sub label".
      const parts = k.split(' > ');
      for (let j = 0; j < parts.length - 1; j++) {
        const m = /^(.*) (\d+)$/.exec(parts[j]);
        if (!m) continue;
        const found = rowCell(names.get([...parts.slice(0, j), m[1]].join(' > ')), m[2], parts.slice(j + 1).join(' > '));
        if (found) return found;
      }
      return undefined;
    },
  };
  byEntity.set(entity, catalogue);
  return catalogue;
}

/** A header in the form people read: the label chain in a language. */
export function describeSlot(reg: Registry, entity: string, path: string, lang: Lang = 'en'): string {
  const slot = columnCatalogue(reg, entity).slots.find((s) => s.path === path);
  return slot ? slot.chain[lang] : path;
}

export interface MappedColumn {
  /** Position in the file. */
  index: number;
  header: string;
  target: ColumnTarget;
}

export interface HeaderMapping {
  columns: MappedColumn[];
  unknown: string[];
  ambiguous: string[];
  ignored: string[];
  /** Two headers naming the same cell. */
  duplicates: { header: string; other: string }[];
  missing: { path: string; label: string }[];
}

const targetKey = (t: ColumnTarget) => (t.kind === 'rowCell' ? `${t.path}.${t.index}.${t.sub}` : t.path);

/** Maps a header row onto an entity's columns and checks that nothing required is missing. */
export function mapHeader(cat: ColumnCatalogue, header: readonly string[]): HeaderMapping {
  const out: HeaderMapping = { columns: [], unknown: [], ambiguous: [], ignored: [], duplicates: [], missing: [] };
  const seen = new Map<string, string>();
  header.forEach((raw, index) => {
    const h = raw.trim();
    if (normalizeHeader(h) === normalizeHeader(cat.errorColumn)) return;
    // Ids are the server's to give: records are matched by their import keys instead.
    if (normalizeHeader(h) === 'id') { out.ignored.push(h); return; }
    const target = cat.match(h);
    if (target === 'ambiguous') { out.ambiguous.push(h); return; }
    if (!target) { if (h !== '') out.unknown.push(h); return; }
    const key = targetKey(target);
    const other = seen.get(key);
    // A list given both as a JSON cell and as indexed cells would be two truths for one field.
    const listClash = target.kind !== 'value' ? out.columns.find((c) => c.target.path === target.path && c.target.kind !== target.kind) : undefined;
    if (other !== undefined || listClash) { out.duplicates.push({ header: h, other: other ?? listClash!.header }); return; }
    seen.set(key, h);
    out.columns.push({ index, header: h, target });
  });
  out.missing = requiredMissing(cat, out.columns);
  return out;
}

/**
 * Columns an import cannot do without: the import keys, and every required field (not
 * optional on import, without a default) of the top level and of each object the file
 * touches. An extension the file has no column of is simply not imported, so its required
 * fields are not asked for.
 */
function requiredMissing(cat: ColumnCatalogue, columns: MappedColumn[]): { path: string; label: string }[] {
  const present = columns.map((c) => c.target.path);
  const has = (path: string) => present.some((p) => p === path || p.startsWith(`${path}.`));
  const missing: { path: string; label: string }[] = [];
  const walk = (fields: readonly FieldDef[], prefix: string, chain: string) => {
    for (const f of fields) {
      if (!importable(f)) continue;
      const path = prefix ? `${prefix}.${f.id}` : f.id;
      const label = f.id === 'extensions' && !prefix ? '' : chain ? `${chain} > ${localize(f.label)}` : localize(f.label);
      if (f.type === 'object' && f.fields && !f.multiple) {
        if (has(path)) walk(f.fields, path, label);
        continue;
      }
      const required = (f.required && !f.optionalOnImport && f.default === undefined) || cat.importKeys.includes(path);
      if (required && !has(path)) missing.push({ path, label });
    }
  };
  walk(cat.fields, '', '');
  for (const k of cat.importKeys) {
    if (!has(k) && !missing.some((m) => m.path === k)) missing.push({ path: k, label: k });
  }
  return missing;
}

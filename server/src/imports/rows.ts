/**
 * From the cells of one CSV row to the nested value the engine validates. Setters are
 * compiled once per file from the header mapping, so a row costs a few property writes.
 */
import { FIELD_TYPES, INVALID, formatError, localize, type FieldDef } from '../../../engine/src/index';
import { normalizeHeader, type MappedColumn } from './columns';

type Rec = Record<string, unknown>;

export interface CellIssue {
  column: string;
  field?: string;
  code: string;
  message: string;
  params?: Record<string, unknown>;
}

/**
 * The error file prefixes cells starting with = + - @ tab or CR with an apostrophe so a
 * spreadsheet does not run them; a fixed file sent back carries it, so it is taken off here.
 */
const NEUTRALISED = /^'[=+\-@\t\r]/;
export const unneutralise = (cell: string): string => (NEUTRALISED.test(cell) ? cell.slice(1) : cell);

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

function setPath(target: Rec, segs: readonly string[], value: unknown): void {
  let cur = target;
  for (let i = 0; i < segs.length - 1; i++) {
    const next = cur[segs[i]];
    if (isRec(next)) cur = next;
    else cur = (cur[segs[i]] = {}) as Rec;
  }
  cur[segs[segs.length - 1]] = value;
}

function parseJsonCell(cell: string): unknown {
  try {
    return JSON.parse(cell);
  } catch {
    return undefined;
  }
}

type Setter = (value: Rec, cell: string, issues: CellIssue[]) => void;

/**
 * A spreadsheet user writes an option as it reads ("Active", "Producto formulado"): the
 * label, in English or Spanish, stands for its value. Anything else goes to the engine as is.
 */
function optionReader(field: FieldDef): ((cell: string) => string) | undefined {
  if (!field.options) return undefined;
  const byText = new Map<string, string>();
  for (const o of field.options) {
    for (const l of ['en', 'es', 'fr'] as const) byText.set(normalizeHeader(localize(o.label, l)), String(o.value));
  }
  for (const o of field.options) byText.set(normalizeHeader(String(o.value)), String(o.value));
  const values = new Set(field.options.map((o) => String(o.value)));
  return (cell) => (values.has(cell) ? cell : byText.get(normalizeHeader(cell)) ?? cell);
}

function compileSetter(col: MappedColumn): Setter {
  const t = col.target;
  const segs = t.path.split('.');
  if (t.kind === 'value') {
    const option = optionReader(t.field);
    if (!t.field.multiple) return option ? (value, cell) => setPath(value, segs, option(cell)) : (value, cell) => setPath(value, segs, cell);
    // A multiple field is a comma-separated cell (the engine splits it); a JSON array cell lets
    // values that contain commas through.
    return (value, cell) => {
      const parsed = cell.startsWith('[') ? parseJsonCell(cell) : undefined;
      setPath(value, segs, Array.isArray(parsed) ? parsed : cell);
    };
  }
  if (t.kind === 'rows') {
    const { parse } = FIELD_TYPES[t.field.type];
    return (value, cell, issues) => {
      const parsed = parse(t.field, cell);
      if (parsed !== INVALID) setPath(value, segs, parsed);
      else issues.push({ column: col.header, field: t.path, code: 'IMPORT_BAD_ROWS_CELL', message: formatError('IMPORT_BAD_ROWS_CELL', { label: localize(t.field.label) }), params: { label: localize(t.field.label) } });
    };
  }
  const subSegs = t.sub.split('.');
  const index = t.index;
  return (value, cell) => {
    let list: unknown = value;
    for (const s of segs) list = isRec(list) ? list[s] : undefined;
    if (!Array.isArray(list)) {
      list = [];
      setPath(value, segs, list);
    }
    const rows = list as unknown[];
    // Rows a file leaves empty stay holes: the engine skips them and keeps the file's numbering.
    let row = rows[index];
    if (!isRec(row)) row = rows[index] = {};
    setPath(row as Rec, subSegs, cell);
  };
}

export interface RowBuilder {
  /** Number of cells the header has. */
  width: number;
  /** The raw value of a row (strings, as the engine expects on import) and any cell that could not be read. */
  build(cells: readonly string[]): { value: Rec; issues: CellIssue[] };
}

export function rowBuilder(columns: readonly MappedColumn[], width: number): RowBuilder {
  const setters = columns.map((c) => ({ index: c.index, set: compileSetter(c) }));
  return {
    width,
    build(cells) {
      const value: Rec = {};
      const issues: CellIssue[] = [];
      for (let i = 0; i < setters.length; i++) {
        const raw = cells[setters[i].index];
        if (raw === undefined) continue;
        const cell = unneutralise(raw.trim());
        // An empty cell is no value: defaults apply to new records, stored values stay on updates.
        if (cell === '') continue;
        setters[i].set(value, cell, issues);
      }
      return { value, issues };
    },
  };
}

/** True for a line with no content (a blank line, or only delimiters): skipped, still counted. */
export function isBlankRow(cells: readonly string[]): boolean {
  for (let i = 0; i < cells.length; i++) if (cells[i].trim() !== '') return false;
  return true;
}

/** Removes dotted paths from a value (in place) and the objects they leave empty. */
export function removePaths(value: Rec, paths: readonly string[]): Rec {
  for (const p of paths) {
    const segs = p.split('.');
    const chain: Rec[] = [value];
    for (let i = 0; i < segs.length - 1; i++) {
      const next = chain[i][segs[i]];
      if (!isRec(next)) break;
      chain.push(next);
    }
    if (chain.length !== segs.length) continue;
    delete chain[chain.length - 1][segs[segs.length - 1]];
    for (let i = chain.length - 1; i > 0; i--) {
      if (Object.keys(chain[i]).length > 0) break;
      delete chain[i - 1][segs[i - 1]];
    }
  }
  return value;
}

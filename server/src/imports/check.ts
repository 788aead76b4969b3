/**
 * Validation of a batch of rows, the same for a dry run and a commit: cells → value, the
 * engine in import mode (SPEC §5), references by id or import key, the same key twice in
 * the file, unique values another record already holds. Nothing here writes to the store.
 */
import { formatError, stripBarred, type ErrorCode } from '../../../engine/src/index';
import type { Store } from '../store/types';
import { eventId, type ImportContext } from './context';
import type { RejectedRow, RowMessage } from './jobs';
import type { Staged } from './plan';
import { RowReferences } from './refs';
import { isBlankRow } from './rows';

export interface RowInput {
  row: number;
  cells: string[];
  /** papaparse's complaint about the row (an unterminated quote…). */
  broken?: string;
}

export interface CheckedBatch {
  staged: Staged[];
  rejected: RejectedRow[];
}

const message = (column: string, field: string | undefined, code: ErrorCode, params: Record<string, unknown>): RowMessage =>
  ({ column, field, code, message: formatError(code, params), params });

/** A value shown in a message: short, and never mistaken for markup or a formula by a reader. */
const shown = (v: unknown) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? '';
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
};

/** One entry per row, in row order, whatever check found its problems. */
function mergeRejected(rows: RejectedRow[]): RejectedRow[] {
  const byRow = new Map<number, RejectedRow>();
  for (const r of rows) {
    const prev = byRow.get(r.row);
    if (prev) prev.messages.push(...r.messages);
    else byRow.set(r.row, { row: r.row, messages: [...r.messages] });
  }
  return [...byRow.values()].sort((a, b) => a.row - b.row);
}

export class BatchChecker {
  /** Import key (or event hash) → the row that first used it: the same key twice is reported, never merged. */
  private readonly seen = new Map<string, number>();
  private readonly refs: RowReferences;

  constructor(private readonly ctx: ImportContext, private readonly store: Pick<Store, 'find'>) {
    this.refs = new RowReferences(ctx.reg, store, ctx.fields);
  }

  async check(rows: readonly RowInput[]): Promise<CheckedBatch> {
    const { ctx } = this;
    const rejected: RejectedRow[] = [];
    const valid: Staged[] = [];
    for (const input of rows) {
      if (input.broken) {
        rejected.push({ row: input.row, messages: [message('', undefined, 'IMPORT_MALFORMED_ROW', { reason: input.broken })] });
        continue;
      }
      if (input.cells.length !== ctx.builder.width) {
        rejected.push({ row: input.row, messages: [message('', undefined, 'IMPORT_RAGGED_ROW', { cells: input.cells.length, columns: ctx.builder.width })] });
        continue;
      }
      const built = ctx.builder.build(input.cells);
      const issues = built.issues;
      // The record pipeline's first steps: what a client never writes dropped, defaults filled.
      const value = stripBarred(ctx.def, built.value) as Record<string, unknown>;
      const defaults = ctx.fillDefaults(value);
      const result = ctx.compiled(value, { mode: 'import' });
      const messages: RowMessage[] = issues.map((i) => ({ ...i }));
      for (const m of result.messages) {
        if (m.severity !== 'error') continue;
        // A JSON cell that could not be read already says so; the engine's echo would add nothing.
        if (issues.some((i) => i.field && m.field?.startsWith(i.field))) continue;
        messages.push({ column: ctx.columnOf(m.field), field: m.field, code: m.code, message: m.message, params: m.params });
      }
      const cleaned = (result.value ?? value) as Record<string, unknown>;
      // A master entity with no import key (no unique field) can only be added to, never matched.
      if (ctx.kind === 'master' && ctx.keyPaths.length > 0) {
        const key = ctx.keyOf(cleaned);
        if (!key) {
          const path = ctx.keyPaths[0];
          if (!messages.some((m) => m.field === path)) messages.push(message(ctx.columnOf(path), path, 'IMPORT_KEY_MISSING', { label: ctx.labelOf(path) }));
        } else {
          const first = this.seen.get(key.key);
          if (first !== undefined) {
            messages.push(message(ctx.columnOf(key.path), key.path, 'IMPORT_DUPLICATE_IN_FILE', { label: ctx.labelOf(key.path), value: shown(key.value), row: first }));
          } else {
            this.seen.set(key.key, input.row);
          }
        }
      }
      if (messages.length > 0) rejected.push({ row: input.row, messages });
      else valid.push({ r: input.row, v: cleaned, d: defaults.length > 0 ? defaults : undefined });
    }
    const staged = await this.resolve(valid, rejected);
    if (ctx.kind === 'master') await this.checkUnique(staged, rejected);
    const merged = mergeRejected(rejected);
    const rejectedRows = new Set(merged.map((r) => r.row));
    return { staged: staged.filter((s) => !rejectedRows.has(s.r)), rejected: merged };
  }

  /** References to ids; events get their content id (after resolution, so an id and a key name the same event). */
  private async resolve(valid: Staged[], rejected: RejectedRow[]): Promise<Staged[]> {
    const { ctx } = this;
    const out: Staged[] = [];
    for (const s of valid) {
      const found = this.refs.resolve(s.v);
      const missing = Array.isArray(found) ? found : await found; // no await when every value is remembered
      if (missing.length > 0) {
        rejected.push({ row: s.r, messages: missing.map((d) => ({ column: ctx.columnOf(d.field), field: d.field, code: d.code, message: d.message, params: d.params })) });
        continue;
      }
      if (ctx.kind === 'event') {
        s.id = eventId(ctx.entity, s.v);
        const first = this.seen.get(s.id);
        if (first !== undefined) {
          rejected.push({ row: s.r, messages: [message('', undefined, 'IMPORT_DUPLICATE_EVENT', { row: first })] });
          continue;
        }
        this.seen.set(s.id, s.r);
      }
      out.push(s);
    }
    return out;
  }

  /**
   * A unique value (a SENASA name…) another record already holds would fail the write; found
   * here, the row is rejected before anything is written rather than rolled back later.
   */
  private async checkUnique(staged: Staged[], rejected: RejectedRow[]): Promise<void> {
    const { ctx } = this;
    for (const path of ctx.uniquePaths) {
      const get = ctx.getter(path);
      const rowsByValue = new Map<string | number | boolean, Staged[]>();
      for (const s of staged) {
        const v = get(s.v);
        if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') continue;
        const list = rowsByValue.get(v);
        if (list) list.push(s);
        else rowsByValue.set(v, [s]);
      }
      const values = [...rowsByValue.keys()];
      // With one import key, the records the rows themselves update are left out by the query:
      // a re-import then reads nothing instead of every record it touches.
      const single = ctx.keyPaths.length === 1 ? ctx.keyPaths[0] : undefined;
      const ownKeys = single ? [...new Set(staged.map((s) => ctx.keyOf(s.v)?.value).filter((v) => v !== undefined))] : [];
      for (let i = 0; i < values.length; i += 400) {
        const filter: Record<string, unknown> = { [path]: { $in: values.slice(i, i + 400) } };
        if (single && ownKeys.length <= 1000) filter[single] = { $nin: ownKeys };
        const docs = await this.store.find(ctx.entity, { filter });
        for (const doc of docs) {
          const v = get(doc) as string | number | boolean;
          const owner = ctx.keyOf(doc)?.key;
          for (const s of rowsByValue.get(v) ?? []) {
            if (ctx.keyOf(s.v)?.key === owner) continue;
            rejected.push({ row: s.r, messages: [message(ctx.columnOf(path), path, 'IMPORT_UNIQUE_TAKEN', { label: ctx.labelOf(path), value: shown(v), entity: ctx.entity })] });
          }
        }
      }
    }
  }

  /** Rows with nothing in them are skipped (still counted in the numbering). */
  static isBlank(cells: readonly string[]): boolean {
    return isBlankRow(cells);
  }
}

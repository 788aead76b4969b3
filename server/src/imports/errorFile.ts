/**
 * The error file: the file's own rows (as uploaded, same delimiter) plus an "Import errors"
 * column, to fix in a spreadsheet and upload again. Built on request by reading the upload
 * alongside the stored rejections (both in row order), so it costs no memory and no storage.
 *
 * Spreadsheet formula injection is neutralised: a cell starting with = + - @ tab or CR is
 * prefixed with an apostrophe (OWASP's advice). The import takes that apostrophe off again
 * when the fixed file comes back (rows.ts), so "-5" survives the round trip.
 */
import type { Store } from '../store/types';
import { ERROR_COLUMN } from './columns';
import { rejectedRows, type Job, type RejectedRow } from './jobs';
import { readRecords } from './source';
import { isBlankRow } from './rows';

const FORMULA = /^[=+\-@\t\r]/;

export function neutralise(cell: string): string {
  return FORMULA.test(cell) ? `'${cell}` : cell;
}

export function csvCell(cell: string, delimiter: string): string {
  const safe = neutralise(cell);
  return safe.includes('"') || safe.includes(delimiter) || safe.includes('\n') || safe.includes('\r') || safe !== safe.trim()
    ? `"${safe.replace(/"/g, '""')}"`
    : safe;
}

export function csvLine(cells: readonly string[], delimiter: string): string {
  return `${cells.map((c) => csvCell(c, delimiter)).join(delimiter)}\r\n`;
}

export function describeMessages(row: RejectedRow): string {
  return row.messages.map((m) => (m.column ? `[${m.column}] ${m.message}` : m.message)).join(' | ');
}

/** A cursor over rejected rows in row order, answering "what is wrong with row n?". */
class Cursor {
  private next: RejectedRow | undefined;
  private done = false;
  constructor(private readonly rows: AsyncGenerator<RejectedRow>) {}
  async take(row: number): Promise<RejectedRow | undefined> {
    while (!this.done && (this.next === undefined || this.next.row < row)) {
      const r = await this.rows.next();
      if (r.done) this.done = true;
      else this.next = r.value;
    }
    return this.next?.row === row ? this.next : undefined;
  }
}

/** The error file, in text chunks (UTF-8 with a byte-order mark, which Excel needs to read it as UTF-8). */
export async function* errorFile(store: Store, job: Job, uploadPath: string, maxBytes: number, everyRow: boolean): AsyncGenerator<string> {
  const d = job.format.delimiter;
  const cursors = [new Cursor(rejectedRows(store, job.id, 'validate')), new Cursor(rejectedRows(store, job.id, 'apply'))];
  // A file that is itself an error file already has the column: it is replaced, not repeated.
  const errorIndex = job.header.findIndex((h) => h.trim() === ERROR_COLUMN);
  const own = (cells: string[]) => (errorIndex >= 0 ? cells.filter((_, i) => i !== errorIndex) : cells);
  const width = own(job.header).length;
  let record = 0;
  let out = '\ufeff';
  for await (const chunk of readRecords(uploadPath, job.format, maxBytes)) {
    for (const cells of chunk.rows) {
      record++;
      if (record === 1) {
        out += csvLine([...own(cells), ERROR_COLUMN], d);
        continue;
      }
      if (isBlankRow(cells)) continue;
      const found: RejectedRow[] = [];
      for (const c of cursors) {
        const r = await c.take(record);
        if (r) found.push(r);
      }
      if (found.length === 0 && !everyRow) continue;
      // A short (ragged) row is padded so its errors land in the error column.
      const data = own(cells);
      const padded = data.length < width ? [...data, ...Array<string>(width - data.length).fill('')] : data;
      out += csvLine([...padded, found.map(describeMessages).join(' | ')], d);
    }
    if (out.length > 64 * 1024) {
      yield out;
      out = '';
    }
  }
  if (out.length > 0) yield out;
}

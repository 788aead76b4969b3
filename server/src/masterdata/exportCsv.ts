import type { EntityDef, Lang, Registry } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import { setImmediate } from 'node:timers/promises';
import type { Store, StoredDoc } from '../store/types';
// The list's column model and cell formatting, shared with the web list so the CSV and the
// screen show the same text, referenced records' titles included.
import { cellText, columnsOf, type ColumnSpec } from '../../../engine/src/list/index';
import type { ListQuery } from '../../../engine/src/index';
import { buildListQuery } from './query';
import { referenceTitles } from './references';

/** Rows read from the store per round trip: the export never holds more than one page. */
export const EXPORT_PAGE_SIZE = 500;

const FORMULA_START = /^[=+\-@\t\r]/;
/** A text that may start a formula or needs quoting: only those go the long way. */
const NEEDS_CARE = /^[=+\-@\t\r]|[",\r\n]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** A text a spreadsheet would run as a formula gets a leading quote; plain numbers stay as they are. */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * One CSV cell: a text a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is
 * prefixed with a quote; numbers stay numbers; quotes, commas and line breaks are quoted.
 */
export function csvCell(text: string): string {
  // Most cells need neither: one test settles them (a report export writes millions).
  if (!NEEDS_CARE.test(text)) return text;
  const safe = neutralise(text);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += i === 0 ? csvCell(cells[i]) : `,${csvCell(cells[i])}`;
  return `${line}\r\n`;
}

/** The export's columns: the requested ones among the list's, in the order asked; the default ones (listColumns) otherwise. */
export function exportColumns(reg: Registry, def: EntityDef, lang: Lang, requested?: string): ColumnSpec[] {
  const all = columnsOf(reg, def.name, lang);
  if (!requested) return all.filter((c) => !c.optional);
  return requested.split(',').map((p) => p.trim()).filter(Boolean).map((p) => {
    const col = all.find((c) => c.path === p);
    if (!col) throw new ApiError('INVALID_REQUEST', { detail: `"${p.slice(0, 60)}" is not a list column of ${def.name}; columns: ${all.map((c) => c.path).join(', ')}` });
    return col;
  });
}

/**
 * The CSV of a list query across all its pages: a header of labels, then one line per
 * record, read from the store a page at a time with the list's own filter and sort; a
 * reference shows its record's title, looked up once per page and target entity.
 *
 * Pages follow each other by keyset (the last record is the cursor), so each costs the same
 * wherever it lies; between pages the generator waits for the event loop's next turn, so an
 * export of any size never holds the server longer than one page (other requests run between).
 */
export async function* exportCsv(reg: Registry, store: Store, def: EntityDef, query: Omit<ListQuery, 'page' | 'pageSize'> & { columns?: string }, lang: Lang, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<string> {
  const cols = exportColumns(reg, def, lang, query.columns);
  const q = buildListQuery(reg, def, { ...query, page: 1, pageSize });
  yield csvLine(cols.map((c) => c.label));
  for (let after: StoredDoc | undefined; ;) {
    const page = await store.find(def.name, { filter: q.filter, search: q.search, sort: q.sort, after, limit: pageSize });
    const titles = await referenceTitles(reg, store, cols, page, lang);
    let chunk = '';
    for (const rec of page) {
      for (const s of def.secretFields) delete (rec as Record<string, unknown>)[s];
      chunk += csvLine(cols.map((c) => cellText(c, rec, lang, titles)));
    }
    if (chunk) yield chunk;
    if (page.length < pageSize) return;
    after = page[page.length - 1];
    await setImmediate();
  }
}

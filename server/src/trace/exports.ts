import { EPCIS_CONTEXT, type Lang, type Registry, type TraceRow } from '../../../engine/src/index';
import { csvLine } from '../masterdata/exportCsv';
import { ROW_COLUMNS, textOf } from './rows';
import type { Trace } from './service';

/**
 * The recall spreadsheet: a header of the columns in the caller's language, then one line per
 * row (rows.ts), dates as YYYY-MM-DD, times as HH:MM:SS UTC, numbers as numbers; a cell a
 * spreadsheet would run as a formula is neutralised (masterdata/exportCsv.ts).
 */
export function traceCsv(reg: Registry, rows: readonly TraceRow[], lang: Lang): string {
  const cell = (r: TraceRow, c: (typeof ROW_COLUMNS)[number]): string => {
    if (c === 'time') return r.time.slice(11, 19);
    const v = r[c];
    return v === null || v === undefined ? '' : String(v);
  };
  // A byte-order mark, so a spreadsheet opens the accents as UTF-8.
  return `\uFEFF${csvLine(ROW_COLUMNS.map((c) => textOf(reg, lang, `trace.column.${c}`)))}${rows.map((r) => csvLine(ROW_COLUMNS.map((c) => cell(r, c)))).join('')}`;
}

/** The events behind a trace as one EPCIS 2.0 document (JSON-LD), oldest first. */
export function epcisDocument(trace: Trace, now = new Date()): Record<string, unknown> {
  return {
    '@context': [EPCIS_CONTEXT],
    type: 'EPCISDocument',
    schemaVersion: '2.0',
    creationDate: now.toISOString(),
    epcisBody: { eventList: trace.events.map((e) => e.epcis) },
  };
}

/** A file name for a trace's exports: what it starts from and the day. */
export function exportName(trace: Trace, now = new Date()): string {
  const id = trace.answer.start.identifier.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60) || 'trace';
  return `trace-${trace.answer.start.kind}-${id}-${now.toISOString().slice(0, 10)}`;
}

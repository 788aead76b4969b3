import type { Lang, Registry, TraceNode, TraceRow } from '../../../engine/src/index';
import { interpolate } from '../../../engine/src/index';
import type { EventView } from './events';
import { locationIndex, lotIndex } from './events';
import type { Lookups } from './lookups';
import type { Trace } from './service';

/** The columns, in the order of the CSV and the events screen; each sorts. */
export const ROW_COLUMNS = [
  'date', 'time', 'type', 'bizStep', 'disposition', 'material', 'gtin', 'lot', 'ibc', 'role', 'quantity', 'unit', 'from', 'to', 'document', 'operation', 'transition', 'event',
] as const;
export type RowColumn = (typeof ROW_COLUMNS)[number];

/** A text of the bundles in the caller's language (trace.* keys, schemas/i18n). */
export function textOf(reg: Registry, lang: Lang, key: string, params: Record<string, unknown> = {}): string {
  return interpolate((reg.i18n[lang]?.[key] ?? reg.i18n.en?.[key] ?? key).replace(/\{\{(\w+)\}\}/g, '{$1}'), params);
}

/** What the rows read of an event's operation: its document, label, category and parties. */
export type OperationInfo = Pick<TraceNode, 'document' | 'workflowLabel' | 'category' | 'companies' | 'countries'>;

export interface RowSource {
  events: readonly EventView[];
  /** A lot class to its `material|lot` key, for the lots the rows show. */
  lotOf: (epcClass: string) => string | undefined;
  /** IBC serials the rows name. */
  ibcs: ReadonlySet<string>;
  operation: (workflow: string, id: string) => OperationInfo | undefined;
  /** The unit of a lot in an operation, as the ledger has it. */
  unit: (operation: string, lot: string) => string | undefined;
}

/** The rows of events, in their order. */
export function eventRows(reg: Registry, src: RowSource, lookups: Lookups, lang: Lang, visible: (deposit: string) => boolean): TraceRow[] {
  const where = locationIndex(lookups);
  const beyond = textOf(reg, lang, 'trace.beyondAccess');
  const placeName = (uri: string | undefined): string | undefined => {
    if (uri === undefined) return undefined;
    const d = where.get(uri);
    return d !== undefined && visible(d) ? lookups.depositName(d) : beyond;
  };
  const rows: TraceRow[] = [];
  for (const e of src.events) {
    const op = src.operation(e.operation.workflow, e.operation.id);
    const ibc = e.assets.filter((x) => x.entity === 'ibc_container' && src.ibcs.has(x.value)).map((x) => x.value).join(' ');
    const base = rowBase(e, op, lookups, lang, placeName, ibc);
    const named = e.elements.map((el) => ({ el, key: src.lotOf(el.epcClass) })).filter((x): x is { el: EventView['elements'][number]; key: string } => x.key !== undefined);
    if (named.length === 0) { rows.push({ ...base, role: '', material: '', gtin: '', lot: '', quantity: null, unit: '' }); continue; }
    for (const { el, key } of named) {
      const material = key.slice(0, key.indexOf('|'));
      const m = lookups.materials.get(material);
      rows.push({
        ...base, role: el.role === 'quantity' ? '' : textOf(reg, lang, `trace.role.${el.role}`), material: m?.name ?? material, gtin: m?.gtin ?? '', lot: key.slice(key.indexOf('|') + 1),
        quantity: el.quantity, unit: src.unit(e.operation.id, key) ?? (m?.uom ? lookups.unit(m.uom) : undefined) ?? el.uom ?? '',
      });
    }
  }
  return rows;
}

/** The rows of a trace's events, oldest first. */
export function traceRows(reg: Registry, trace: Trace, lang: Lang, visible: (deposit: string) => boolean): TraceRow[] {
  const nodes = new Map(trace.answer.nodes.map((n) => [n.id, n]));
  const units = new Map(trace.answer.edges.map((x) => [`${x.operation.id}|${x.material}|${x.lot}`, x.unit]));
  return eventRows(reg, {
    events: trace.events, lotOf: lotIndex(trace.lots, trace.lookups), ibcs: new Set(trace.ibcSerials.values()),
    operation: (workflow, id) => nodes.get(`op:${workflow}:${id}`), unit: (op, lot) => units.get(`${op}|${lot}`),
  }, trace.lookups, lang, visible);
}

type Base = Omit<TraceRow, 'role' | 'material' | 'gtin' | 'lot' | 'quantity' | 'unit'>;

function rowBase(e: EventView, op: OperationInfo | undefined, lookups: Lookups, lang: Lang, placeName: (uri: string | undefined) => string | undefined, ibc: string): Base {
  const here = placeName(e.readPoint ?? e.bizLocation) ?? '';
  const parties = (role: 'import' | 'export') => {
    if (!op || (role === 'import' ? op.category !== 'import' : op.category !== 'shipment')) return undefined;
    const who = [...(op.companies ?? []).map((c) => c.name), ...(op.countries ?? []).map((c) => c.name)];
    return who.length ? who.join(', ') : undefined;
  };
  const from = placeName(e.source) ?? parties('import') ?? here;
  const to = placeName(e.destination) ?? parties('export') ?? here;
  return {
    event: e.eventID, type: e.type, time: e.at, date: e.at.slice(0, 10), bizStep: e.bizStep, disposition: e.disposition, ibc, from, to,
    document: op?.document ?? '', operation: op?.workflowLabel ?? e.operation.workflow, transition: lookups.transitionLabel(e.operation.workflow, e.operation.transition, lang),
    workflow: e.operation.workflow, record: e.operation.id,
  };
}

/** Rows sorted by a column (a leading `-`: descending), ties by time then event; the default is time. */
export function sortRows(rows: TraceRow[], sort = 'time'): TraceRow[] {
  const desc = sort.startsWith('-');
  const col = (desc ? sort.slice(1) : sort) as RowColumn;
  const key = (r: TraceRow) => r[col];
  const cmp = (a: unknown, b: unknown) => {
    if (a === b) return 0;
    if (a === null || a === undefined || a === '') return -1;
    if (b === null || b === undefined || b === '') return 1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a) < String(b) ? -1 : 1;
  };
  return [...rows].sort((a, b) => (desc ? -cmp(key(a), key(b)) : cmp(key(a), key(b))) || cmp(a.time, b.time) || cmp(a.event, b.event) || cmp(a.lot, b.lot));
}

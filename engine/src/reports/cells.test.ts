import { beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '../registry/registry';
import { reportRegistry } from '../testing/reportFixtures';
import { cellText, reportColumns, reportHeader, type CellColumn } from './cells';

let reg: Registry;
beforeAll(() => { reg = reportRegistry(); });

const col = (over: Partial<CellColumn>): CellColumn => ({ id: 'c', label: 'C', type: 'text', field: 'v', sortable: true, lang: 'en', ...over });

describe('reportColumns and reportHeader', () => {
  it('serializable columns in one language: labels, fields, state labels of the status workflow, the action', () => {
    const cols = reportColumns(reg, reg.reports.shipments_report, 'es');
    expect(JSON.parse(JSON.stringify(cols))).toEqual(cols);
    expect(reportHeader(cols)).toEqual(['Send date (es)', 'Remito (es)', 'Products (es)', 'Status (es)', 'Receiver (es)']);
    expect(cols[2]).toEqual({ id: 'products', label: 'Products (es)', type: 'array', field: 'lines', subField: 'batch', sortable: false, lang: 'es' });
    expect(cols[3].statuses).toMatchObject({ Draft: 'Draft (es)', 'Partial Reject': 'Partial Reject (es)' });
    expect(cols[1].action).toEqual({ workflow: 'shipment', idField: 'id' });
  });
});

describe('cellText: the same text on screen and in the CSV', () => {
  const row = {
    sendDate: '2024-03-01T23:59:59.000Z', day: '2024-03-02', status: 'Partial Reject', shipmentID: 'R-01',
    lines: [{ batch: 'B1', amount: 3 }, { batch: 'B2' }, { amount: 4 }],
    receiver: { division_name: 'North', gln: '01' },
    title: { en: 'Low stock', es: 'Stock bajo', fr: 'Stock bas' },
    tags: ['a', ['b', 'c']],
    quantity: 0,
    born: '2020-06-15',
  };

  it('date_text: the date part, whether a date, a date-time or a Date', () => {
    expect(cellText(col({ type: 'date_text', field: 'sendDate' }), row)).toBe('2024-03-01');
    expect(cellText(col({ type: 'date_text', field: 'day' }), row)).toBe('2024-03-02');
    expect(cellText(col({ type: 'date_text', field: 'd' }), { d: new Date('2023-12-31T10:00:00Z') })).toBe('2023-12-31');
  });

  it('status: the state label in the column\'s language, in es and fr', () => {
    const [es, fr] = (['es', 'fr'] as const).map((lang) => reportColumns(reg, reg.reports.shipments_report, lang).find((c) => c.type === 'status')!);
    expect(cellText(es, row)).toBe('Partial Reject (es)');
    expect(cellText(fr, row)).toBe('Partial Reject (fr)');
    expect(cellText(fr, { status: 'Unknown' })).toBe('Unknown');
  });

  it('array: each element\'s subField joined by "; ", nested lists flattened; object: its subField or k: v', () => {
    expect(cellText(col({ type: 'array', field: 'lines', subField: 'batch' }), row)).toBe('B1; B2');
    expect(cellText(col({ type: 'array', field: 'tags' }), row)).toBe('a; b; c');
    expect(cellText(col({ type: 'object', field: 'receiver', subField: 'division_name' }), row)).toBe('North');
    expect(cellText(col({ type: 'object', field: 'receiver' }), row)).toBe('division_name: North; gln: 01');
  });

  it('text: a localized text in the column\'s language; number as is; conditional_action its value; age in whole years', () => {
    expect(cellText(col({ field: 'title', lang: 'fr' }), row)).toBe('Stock bas');
    expect(cellText(col({ field: 'title', lang: 'es' }), row)).toBe('Stock bajo');
    expect(cellText(col({ type: 'array', field: 'x', lang: 'es' }), { x: [{ en: 'One', es: 'Uno' }, { en: 'Two', es: 'Dos' }] })).toBe('Uno; Dos');
    expect(cellText(col({ type: 'number', field: 'quantity' }), row)).toBe('0');
    expect(cellText(col({ type: 'conditional_action', field: 'shipmentID' }), row)).toBe('R-01');
    expect(cellText(col({ type: 'age', field: 'born' }), row, '2024-06-14')).toBe('3');
    expect(cellText(col({ type: 'age', field: 'born' }), row, '2024-06-15')).toBe('4');
  });

  it('null or absent: an empty cell', () => {
    for (const type of ['text', 'number', 'date_text', 'age', 'array', 'object', 'status', 'conditional_action'] as const) {
      expect(cellText(col({ type, field: 'missing' }), row)).toBe('');
      expect(cellText(col({ type, field: 'n' }), { n: null })).toBe('');
    }
  });
});

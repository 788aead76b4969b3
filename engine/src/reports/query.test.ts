import { beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '../registry/registry';
import { reportRegistry } from '../testing/reportFixtures';
import type { ReportDef } from '../types';
import { parseReportQuery, ReportError } from './query';

let reg: Registry;
let def: ReportDef;
beforeAll(() => { reg = reportRegistry(); def = reg.reports.shipments_report; });

/** The ReportError a query is refused with, as code, params and message. */
function refusal(query: Record<string, unknown>): { code: string; params: Record<string, unknown>; message: string } {
  try {
    parseReportQuery(reg, def, query);
  } catch (e) {
    expect(e).toBeInstanceOf(ReportError);
    const err = e as ReportError;
    expect(err.name).toBe('ReportError');
    return { code: err.code, params: err.params, message: err.message };
  }
  throw new Error('the query was accepted');
}

describe('parseReportQuery', () => {
  it('reads every filter type, the page, the page size and the sort (column ids to row paths)', () => {
    expect(parseReportQuery(reg, def, {
      'sendDate.from': '2024-01-01', 'sendDate.to': '2024-01-31', status: 'Draft, Accepted', deposit: 'd1', batch: ' B1 ',
      'amount.min': '2.5', uom: ['kg', 'l'], urgent: 'false', receiver: 'North', page: '3', pageSize: '50', sort: '-sendDate,shipmentID', lang: 'fr',
    })).toEqual({
      filters: {
        sendDate: { from: '2024-01-01', to: '2024-01-31' }, status: ['Draft', 'Accepted'], deposit: 'd1', batch: 'B1',
        amount: { min: 2.5 }, uom: ['kg', 'l'], urgent: false, receiver: 'North',
      },
      sort: { sendDate: -1, shipmentID: 1 },
      page: 3,
      pageSize: 50,
    });
  });

  it('defaults: page 1 of 20, the report\'s sort (none given), empty values as no filter', () => {
    expect(parseReportQuery(reg, def, { batch: '', 'sendDate.from': '', status: ',', sort: '' })).toEqual({ filters: {}, page: 1, pageSize: 20 });
  });

  it('a select option keeps its declared type', () => {
    const numeric = { ...def, filters: [{ id: 'n', label: def.label, type: 'select' as const, field: 'x', on: 'source' as const, options: [{ value: 1, label: def.label }, { value: 2, label: def.label }] }] };
    expect(parseReportQuery(reg, numeric, { n: '2,1' }).filters).toEqual({ n: [2, 1] });
  });

  it('refuses an unknown parameter, naming it and the report\'s filters', () => {
    expect(refusal({ batchId: 'B1' })).toEqual({
      code: 'REPORT_FILTER_UNKNOWN',
      params: { filter: 'batchId', report: 'shipments_report', filters: 'sendDate.from, sendDate.to, status, deposit, batch, amount.min, amount.max, uom, urgent, receiver' },
      message: 'batchId is not a filter of the report shipments_report; its filters: sendDate.from, sendDate.to, status, deposit, batch, amount.min, amount.max, uom, urgent, receiver',
    });
    expect(refusal({ sendDate: '2024-01-01' }).params.filter).toBe('sendDate');
  });

  it('refuses a bad date, number, boolean, option or state, naming the parameter', () => {
    expect(refusal({ 'sendDate.from': '2024-02-30' })).toMatchObject({ code: 'REPORT_FILTER_INVALID', params: { filter: 'sendDate.from', value: '2024-02-30', type: 'date (YYYY-MM-DD)' } });
    expect(refusal({ 'sendDate.to': '01/02/2024' }).params.filter).toBe('sendDate.to');
    expect(refusal({ 'amount.max': 'ten' })).toMatchObject({ code: 'REPORT_FILTER_INVALID', params: { filter: 'amount.max', value: 'ten', type: 'number' } });
    expect(refusal({ urgent: 'yes' })).toMatchObject({ code: 'REPORT_FILTER_INVALID', params: { filter: 'urgent', value: 'yes' } });
    expect(refusal({ uom: 'kg,t' })).toMatchObject({ code: 'REPORT_FILTER_INVALID', params: { filter: 'uom', value: 't', type: 'option (kg, l)' } });
    expect(refusal({ status: 'Sent' }).message).toBe('status : Sent is not a valid state (Draft, In-Progress, Accepted, Partial Reject, Total Reject, Rejection Accepted, Cancelled)');
    expect(refusal({ batch: ['B1', 'B2'] })).toMatchObject({ code: 'REPORT_FILTER_INVALID', params: { filter: 'batch', value: 'B1,B2' } });
    expect(refusal({ deposit: { $ne: 'x' } })).toMatchObject({ code: 'REPORT_FILTER_INVALID', params: { filter: 'deposit' } });
  });

  it('refuses a range ending before it starts', () => {
    expect(refusal({ 'sendDate.from': '2024-03-01', 'sendDate.to': '2024-02-01' })).toEqual({
      code: 'REPORT_RANGE_INVERTED', params: { filter: 'sendDate', from: '2024-03-01', to: '2024-02-01' },
      message: 'sendDate : the range ends (2024-02-01) before it starts (2024-03-01)',
    });
    expect(refusal({ 'amount.min': '5', 'amount.max': '1' })).toMatchObject({ code: 'REPORT_RANGE_INVERTED', params: { filter: 'amount', from: 5, to: 1 } });
  });

  it('refuses an unknown or unsortable sort column', () => {
    expect(refusal({ sort: '-sentDate' })).toEqual({ code: 'REPORT_SORT_UNKNOWN', params: { column: 'sentDate', report: 'shipments_report' }, message: 'sentDate is not a sortable column of the report shipments_report' });
    // A list column: sortable false by default. A column's field is not its id.
    expect(refusal({ sort: 'products' }).params.column).toBe('products');
    expect(refusal({ sort: 'lines' }).params.column).toBe('lines');
  });

  it('refuses a page below 1, a page size outside 1..200, and fractions', () => {
    for (const [param, value] of [['page', '0'], ['page', '-1'], ['page', '1.5'], ['pageSize', '0'], ['pageSize', '201'], ['pageSize', 'all']]) {
      expect(refusal({ [param]: value })).toMatchObject({ code: 'REPORT_FILTER_INVALID', params: { filter: param, value } });
    }
    expect(parseReportQuery(reg, def, { pageSize: '200', page: 1 })).toMatchObject({ page: 1, pageSize: 200 });
  });
});

import { describe, expect, it } from 'vitest';
import { requireDefinitions } from '../../../definitions/read';
import type { Registry, WorkflowDef } from '../../../engine/src/index';
import { IBC_LIST_PATH, operationParams } from './api';
import {
  ageYears, alertDaysBefore, bars, byNameOf, dateAlert, days, figure, fillCountBars, fleetQuery, isoDay, NO_FLEET_FILTERS, percent, statusBars,
} from './fleet';
import { locatedRecords, operationView } from './model';
import { listQuery, NO_FILTERS } from './useOperationList';

const base = requireDefinitions(process.cwd());
const t = (en: string) => ({ en, es: en, fr: en });
const wf = (name: string, depositFields: string[]): WorkflowDef => ({
  name, label: t(name), entity: 'lot', access: 'Lots', stateField: 'status', initial: 'a',
  states: [{ id: 'a', label: t('A'), color: '#111111' }, { id: 'b', label: t('B'), color: '#222222' }],
  transitions: [], depositFields, dateField: 'date',
});
const registry: Registry = {
  ...base,
  workflows: { fleet_test: wf('fleet_test', ['deposit_id']), requests_test: wf('requests_test', []) },
  features: {
    ...base.features,
    features: [
      ...base.features.features,
      { id: 'fleet', path: '/fleet', name: t('Fleet'), render: 'external', operation: { workflow: 'fleet_test', create: false, measures: 'ibc' } as never },
      { id: 'assets', path: '/assets', name: t('Assets'), render: 'external', operation: { workflow: 'fleet_test', create: false, map: true } as never },
      { id: 'requests_f', path: '/requests_f', name: t('Requests'), render: 'external', operation: { workflow: 'requests_test' } },
    ],
  },
};
const request = (fleet = NO_FLEET_FILTERS) => ({ q: '', pageIndex: 0, sorting: [{ id: 'date', desc: true }], filters: { ...NO_FILTERS, fleet } });

describe('measure formatting', () => {
  it('shows days and rates with one decimal, counts as they are, and a dash for what is not measured', () => {
    expect(days(12.345)).toBe('12.3');
    expect(days(4)).toBe('4.0');
    expect(days(null)).toBe('—');
    expect(days(Number.NaN)).toBe('—');
    expect(percent(0.0526)).toBe('5.3 %');
    expect(percent(null)).toBe('—');
    expect(figure(1200)).toBe('1200');
    expect(figure(2.04)).toBe('2.0');
    expect(figure(undefined)).toBe('—');
    expect(isoDay('2025-03-04T10:00:00.000Z')).toBe('2025-03-04');
    expect(isoDay('yesterday')).toBe('');
  });

  it('scales bars to the largest count, fill counts in order of uses, statuses in the workflow order with unknown ones last', () => {
    expect(bars([{ key: 'x', label: 'x', count: 0 }])).toEqual([{ key: 'x', label: 'x', count: 0, width: 0 }]);
    expect(fillCountBars({ fillCountDistribution: [{ uses: 3, count: 5 }, { uses: 0, count: 20 }, { uses: 1, count: 10 }] }).map((b) => [b.label, b.width]))
      .toEqual([['0', 100], ['1', 50], ['3', 25]]);
    const states = [{ id: 'in_stock_empty', label: 'In stock' }, { id: 'at_customer', label: 'At customer' }];
    expect(statusBars({ byStatus: { weird: 1, at_customer: 4, in_stock_empty: 8 } }, states).map((b) => [b.key, b.label, b.count, b.width]))
      .toEqual([['in_stock_empty', 'In stock', 8, 100], ['at_customer', 'At customer', 4, 50], ['weird', 'weird', 1, 12.5]]);
  });
});

describe('fleet filters → list query', () => {
  it('sends customer, fill count and age bounds; leaves out empty, negative or half-typed bounds; puts swapped bounds in order', () => {
    expect(fleetQuery(NO_FLEET_FILTERS)).toEqual({ customer: undefined, usesMin: undefined, usesMax: undefined, ageMin: undefined, ageMax: undefined });
    expect(fleetQuery({ customer: 'c1', usesMin: '2', usesMax: '10.7', ageMin: '1,5', ageMax: '-1' }))
      .toEqual({ customer: 'c1', usesMin: 2, usesMax: 10, ageMin: 1, ageMax: undefined });
    expect(fleetQuery({ ...NO_FLEET_FILTERS, usesMin: '9', usesMax: '3', ageMin: 'x' })).toMatchObject({ usesMin: 3, usesMax: 9, ageMin: undefined });
  });

  it('adds them to the list call of a fleet screen (measures "ibc") only, which reads the IBC list route and sends no dates, deposit or sync', () => {
    const fleet = operationView(registry, 'fleet')!;
    expect(fleet.listPath).toBe(IBC_LIST_PATH);
    const filters = { customer: 'c 1', usesMin: '1', usesMax: '', ageMin: '', ageMax: '4' };
    const all = { ...request(filters), filters: { ...request(filters).filters, from: '2025-01-01', to: '2025-02-01', deposit: 'd1', sync: 'failed' as const } };
    expect(operationParams(listQuery(fleet, all))).toBe('?customer=c+1&usesMin=1&ageMax=4&pageSize=20&sort=-date');
    const assets = operationView(registry, 'assets')!;
    expect(assets.listPath).toBe('/api/v3/operations/fleet_test');
    expect(operationParams(listQuery(assets, request(filters)))).toBe('?pageSize=20&sort=-date');
    expect(operationParams(listQuery(assets, all))).toBe('?from=2025-01-01&to=2025-02-01&deposit=d1&sync=failed&pageSize=20&sort=-date');
  });

  it('reads the screen options: measures and map', () => {
    expect(operationView(registry, 'fleet')).toMatchObject({ measures: 'ibc', map: false, create: false });
    expect(operationView(registry, 'assets')).toMatchObject({ measures: null, map: true });
  });

  it('lists a workflow no warehouse narrows (return requests) without a deposit side or filter', () => {
    const v = operationView(registry, 'requests_f')!;
    expect(v.depositField).toBe('');
    expect(operationParams(listQuery(v, request()))).toBe('?pageSize=20&sort=-date');
  });
});

describe('ADR dates', () => {
  it('counts an IBC’s age in whole years from its manufacture date', () => {
    expect(ageYears('2020-06-15', '2025-06-14')).toBe(4);
    expect(ageYears('2020-06-15', '2025-06-15')).toBe(5);
    expect(ageYears('2020-06-15T00:00:00Z', '2020-01-01')).toBe(0);
    expect(ageYears(undefined, '2025-01-01')).toBeNull();
  });

  it('marks a date past, within the alert window (its last day included), or neither', () => {
    expect(dateAlert('2025-01-09', '2025-01-10', 30)).toBe('past');
    expect(dateAlert('2025-01-10', '2025-01-10', 30)).toBe('soon');
    expect(dateAlert('2025-02-09', '2025-01-10', 30)).toBe('soon');
    expect(dateAlert('2025-02-10', '2025-01-10', 30)).toBeNull();
    expect(dateAlert('2025-01-11', '2025-01-10', 0)).toBeNull();
    expect(dateAlert(null, '2025-01-10', 30)).toBeNull();
  });

  it('reads the alert window from settings.ibc, none without it', () => {
    expect(alertDaysBefore({ ibc: { alertDaysBefore: 45 } })).toBe(45);
    expect(alertDaysBefore({})).toBe(0);
  });
});

describe('IBC events', () => {
  it('names who took a step from the history entry of the same transition and instant, else by the user id', () => {
    const history = [
      { transition: 'fill', from: 'a', to: 'b', by: 'u1', byName: 'Paula Plant', at: '2026-03-01T10:00:00.000Z' },
      { transition: 'ship', from: 'b', to: 'c', by: 'u2', at: '2026-03-02T10:00:00.000Z' },
    ];
    expect(byNameOf(history, { transition: 'fill', at: '2026-03-01T10:00:00.000Z', by: 'u1' })).toBe('Paula Plant');
    expect(byNameOf(history, { transition: 'ship', at: '2026-03-02T10:00:00.000Z', by: 'u2' })).toBe('u2');
    expect(byNameOf(history, { transition: 'fill', at: '2026-03-09T10:00:00.000Z', by: 'u3' })).toBe('u3');
  });
});

describe('records map', () => {
  it('places the records having location.lat/lng on the globe, with their title and state', () => {
    const rows = [
      { id: '1', serial_number: 'IBC-1', status: 'a', location: { lat: -34.6, lng: -58.4 } },
      { id: '2', serial_number: 'IBC-2', status: 'b', location: { lat: 95, lng: 0 } },
      { id: '3', serial_number: 'IBC-3', status: 'b' },
      { id: '4', serial_number: 'IBC-4', status: 'b', location: { lat: '1', lng: 2 } },
    ];
    expect(locatedRecords(rows, (r) => String(r.serial_number), (r) => String(r.status)))
      .toEqual([{ id: '1', lat: -34.6, lng: -58.4, title: 'IBC-1', state: 'a' }]);
  });
});

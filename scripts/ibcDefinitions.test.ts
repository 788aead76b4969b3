import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDefinitions } from '../definitions/read';
import type { Registry } from '../engine/src/index';

/**
 * The shipped IBC and bulk definitions hold the names the issue 16 contract fixes
 * (/work/wt/CONTRACT16.md): the server, the web and the demo code against them.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const { registry, problems } = loadDefinitions(root);
const reg = registry as Registry;

/** The transitions, of every workflow, that a key's backend operations grant. */
function grantedTransitions(key: string): string[] {
  const ops = new Set(reg.access.keys.find((k) => k.key === key)!.operations);
  return Object.values(reg.workflows).flatMap((wf) => wf.transitions.filter((t) => t.operations!.some((o) => ops.has(o))).map((t) => `${wf.name}.${t.id}`)).sort();
}

describe('the shipped IBC and bulk definitions', () => {
  it('load without a problem', () => {
    expect(problems).toEqual([]);
  });

  it('the ibc life cycle: its states and each transition with its key and operations', () => {
    const ibc = reg.workflows.ibc;
    expect([ibc.entity, ibc.stateField, ibc.initial, ibc.access]).toEqual(['ibc_container', 'status', 'in_stock_empty', 'ibcTraceability']);
    expect(ibc.states.map((s) => s.id)).toEqual(['in_stock_empty', 'prepared', 'in_transit', 'at_customer', 'return_requested', 'returned', 'in_qc', 'quarantine', 'blocked', 'disposed']);
    expect(Object.fromEntries(ibc.transitions.map((t) => [t.id, [t.from.join(','), t.to ?? '=', t.access, t.operations!.join(',')]]))).toEqual({
      fill: ['in_stock_empty', 'prepared', 'IBC Batch Preparation', 'saveIBCBatches'],
      ship: ['prepared', 'in_transit', 'IBC Deliveries', 'confirmIbcDelivery,confirmDelivery'],
      receive: ['in_transit', 'at_customer', 'IBC Reception', 'confirmReception,acceptContainer,transporterReception'],
      requestReturn: ['at_customer', 'return_requested', 'Return Requests', 'saveReturnRequest,returnRequests'],
      cancelReturnRequest: ['return_requested', 'at_customer', 'Return Requests', 'deleteReturnRequest'],
      return: ['at_customer,return_requested', 'returned', 'IBC Returns', 'fetchReturns,acceptContainer'],
      startQC: ['returned,in_stock_empty', 'in_qc', 'Perform QC', 'completeQC'],
      passQC: ['in_qc,quarantine', 'in_stock_empty', 'Perform QC', 'completeQC'],
      quarantine: ['in_qc', 'quarantine', 'Perform QC', 'completeQC'],
      block: ['in_qc,quarantine', 'blocked', 'Perform QC', 'completeQC'],
      dispose: ['in_stock_empty,returned,quarantine,blocked', 'disposed', 'IBC Disposal', ''],
      transfer: ['in_stock_empty,prepared', '=', 'Container Transfer', 'containerTransfer,transferContainerToCurrentWarehouse'],
      mapNfc: ['in_stock_empty,prepared,in_transit,at_customer,return_requested,returned,in_qc,quarantine,blocked', '=', 'Map IBC', 'mapNfcToIbc'],
      mapLocation: ['in_stock_empty,prepared,in_transit,at_customer,return_requested,returned,in_qc,quarantine,blocked', '=', 'Map Location', 'updateContainerEvent'],
    });
    expect(ibc.log).toEqual({ entity: 'ibc_event', fields: { serial: '$record.serial_number', deposit: '$record.deposit_id', customer: '$record.lastCustomer', customerSince: '$record.customerSince', uses: '$record.numberOfUses' } });
    // No client writes the life cycle's fields: only transitions do.
    expect(reg.entities.ibc_container.serverFields).toEqual(expect.arrayContaining(['status', 'numberOfUses', 'nfcTagNumber', 'customer', 'lastCustomer', 'customerSince', 'content', 'nextInspectionDate', 'endOfLife', 'history']));
  });

  it('filling is refused past either ADR date, with a message naming the IBC and the date in every language', () => {
    const fill = reg.workflows.ibc.transitions.find((t) => t.id === 'fill')!;
    expect(fill.refuse!.map((r) => r.when)).toEqual([{ nextInspectionDate: { $lt: '$today' } }, { endOfLife: { $lt: '$today' } }]);
    for (const [i, date] of [[0, '{nextInspectionDate}'], [1, '{endOfLife}']] as const) {
      for (const text of Object.values(fill.refuse![i].message)) expect(text).toEqual(expect.stringContaining('{serial_number}') && expect.stringContaining(date));
    }
  });

  it('the operations over many IBCs take an ibc transition on every listed IBC', () => {
    const taken = (wf: string) => reg.workflows[wf].transitions.flatMap((t) => t.effects!.filter((e) => e.type === 'transitionRecords').map((e) => `${t.id}→${(e as { transition: string }).transition}`));
    expect(taken('ibc_batch_preparation')).toEqual(['confirm→fill']);
    expect(taken('ibc_delivery')).toEqual(['confirm→ship', 'receive→receive', 'receiveByTransporter→receive']);
    expect(taken('return_request')).toEqual(['request→requestReturn', 'withdraw→cancelReturnRequest', 'receive→return']);
    expect(reg.workflows.bulk_delivery.registered).toEqual([
      { field: 'truckMapping.truckNo', entity: 'truck', key: 'truckNo' },
      { field: 'truckMapping.isoTankLicense', entity: 'iso_tank', key: 'isoTankLicense' },
    ]);
    expect(reg.workflows.bulk_delivery.transitions.map((t) => t.id)).toEqual(['confirm', 'cancel', 'accept', 'reject', 'acceptRejection']);
  });

  it('a mobile key grants only what its operations name: perform QC takes the QC transitions and reads IBCs', () => {
    expect(grantedTransitions('ibc.mobile.performqc')).toEqual(['ibc.block', 'ibc.passQC', 'ibc.quarantine', 'ibc.startQC']);
    expect(reg.workflows.ibc.operations!.read).toContain('getIBC');
    expect(grantedTransitions('bulk.mobile.delivery')).toEqual(['bulk_delivery.confirm']);
    expect(grantedTransitions('ibc.mobile.transporterreception')).toEqual(['ibc.receive', 'ibc_delivery.receiveByTransporter']);
    const mobile = reg.access.keys.filter((k) => /^(ibc|bulk)\.mobile\./.test(k.key)).map((k) => k.key);
    expect(mobile).toHaveLength(14);
    expect(reg.access.templates.find((t) => t.id === 'ibcMobile')!.keys).toEqual(mobile);
    expect(reg.access.templates.find((t) => t.id === 'ibcOperator')!.keys).toEqual(expect.arrayContaining(['IBC Inventory', 'Perform QC', 'Bulk Deliveries', 'Bulk Reception']));
  });

  it('the IBC and bulk screens are drawn from the workflows', () => {
    const screen = (path: string) => reg.features.features.find((f) => f.path === path)!;
    expect(Object.fromEntries(['/ibc-inventory', '/reusable_assets', '/ibc-batch-preparation', '/ibc-deliveries', '/ibc-reception', '/return-requests', '/bulk-deliveries', '/bulk-reception']
      .map((p) => [p, [screen(p).access, screen(p).operation]]))).toEqual({
      '/ibc-inventory': ['IBC Inventory', { workflow: 'ibc', create: false, measures: 'ibc' }],
      '/reusable_assets': ['Assets', { workflow: 'ibc', create: false, map: true }],
      '/ibc-batch-preparation': ['IBC Batch Preparation', { workflow: 'ibc_batch_preparation', create: true }],
      '/ibc-deliveries': ['IBC Deliveries', { workflow: 'ibc_delivery', depositField: 'deposit', create: true }],
      '/ibc-reception': ['IBC Reception', { workflow: 'ibc_delivery', depositField: 'receiverDeposit', states: ['In-Progress', 'Received'], create: false }],
      '/return-requests': ['Return Requests', { workflow: 'return_request', create: true }],
      '/bulk-deliveries': ['Bulk Deliveries', { workflow: 'bulk_delivery', depositField: 'deposit', create: true }],
      '/bulk-reception': ['Bulk Reception', { workflow: 'bulk_delivery', depositField: 'receiverDeposit', states: ['In-Progress', 'Received', 'Rejected', 'Rejection Accepted'], create: false }],
    });
    expect(reg.deployment.settings.ibc).toEqual({ inspectionIntervalMonths: 30, lifetimeYears: 5, alertDaysBefore: 30, lossAfterDays: 180 });
  });
});

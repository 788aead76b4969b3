import { describe, expect, it } from 'vitest';
import { workflowRegistry } from '../testing/workflowFixtures';
import { keysGranting, transitionKeys, workflowKeys } from './access';
import { availableTransitions } from './plan';

const t = (en: string) => ({ en, es: en, fr: en });
const access = {
  keys: [
    { key: 'Perform QC', label: t('Perform QC'), operations: ['completeQC'] },
    { key: 'IBC Deliveries', label: t('IBC Deliveries') },
    { key: 'Return Requests', label: t('Return Requests'), operations: ['saveReturnRequest', 'returnRequests'] },
    // Mobile feature keys (SPEC 6) are keys like any other, listing the operations they need.
    { key: 'ibc.mobile.performqc', label: t('QC'), operations: ['getIBC', 'completeQC'] },
    { key: 'ibc.mobile.customerreturnrequest', label: t('Return request'), operations: ['getIBC', 'saveReturnRequest', 'searchReturnRequest'] },
  ],
};

describe('keys granted by backend operations', () => {
  it('are the access and mobile keys listing any of the operations, once each', () => {
    expect(keysGranting(access, ['completeQC'])).toEqual(['Perform QC', 'ibc.mobile.performqc']);
    expect(keysGranting(access, ['saveReturnRequest', 'returnRequests'])).toEqual(['Return Requests', 'ibc.mobile.customerreturnrequest']);
    expect(keysGranting(access, ['getIBC'])).toEqual(['ibc.mobile.performqc', 'ibc.mobile.customerreturnrequest']);
    expect(keysGranting(access, [])).toEqual([]);
    expect(keysGranting(access, undefined)).toEqual([]);
    expect(keysGranting({ keys: access.keys.slice(0, 3) }, ['completeQC'])).toEqual(['Perform QC']);
  });

  it("a transition's keys are its own and those listing its operations; a workflow's, per kind of route", () => {
    const reg = { access };
    expect(transitionKeys(reg, { access: 'Perform QC', operations: ['completeQC'] })).toEqual(['Perform QC', 'ibc.mobile.performqc']);
    expect(transitionKeys(reg, { access: 'IBC Deliveries' })).toEqual(['IBC Deliveries']);
    const wf = { access: 'Return Requests', operations: { read: ['searchReturnRequest'], draft: ['saveReturnRequest'] } };
    expect(workflowKeys(reg, wf, 'read')).toEqual(['Return Requests', 'ibc.mobile.customerreturnrequest']);
    expect(workflowKeys(reg, wf, 'draft')).toEqual(['Return Requests', 'ibc.mobile.customerreturnrequest']);
    expect(workflowKeys(reg, { access: 'IBC Deliveries' }, 'read')).toEqual(['IBC Deliveries']);
  });

  it('open a transition to a holder of a key listing one of its operations, given the registry', () => {
    const base = workflowRegistry();
    const wf = { ...base.workflows.shipment, transitions: base.workflows.shipment.transitions.map((x) => (x.id === 'acceptAll' ? { ...x, operations: ['completeQC'] } : x)) };
    const reg = { access: { ...base.access, keys: [...base.access.keys, ...access.keys.filter((k) => k.key.startsWith('ibc.mobile.'))] } };
    const record = { id: 's1', status: 'In-Progress', lines: [] };
    expect(availableTransitions(wf, record, ['ibc.mobile.performqc'], false, reg).map((x) => x.id)).toEqual(['acceptAll']);
    expect(availableTransitions(wf, record, ['ibc.mobile.performqc'], false).map((x) => x.id)).toEqual([]);
    expect(availableTransitions(wf, record, ['Reception'], false, reg).map((x) => x.id)).toEqual(['acceptAll', 'partialReject', 'totalReject']);
  });
});

import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Registry, TransitionPlan, WorkflowDef } from '../../../../engine/src/index';
import { loadDefinitions } from '../../../../definitions/read';
import type { Store } from '../../store/types';
import type { WorkflowEngine } from '../service';

const t = (en: string) => ({ en, es: en, fr: en });

/** A small delivery-like operation: lines of material, batch and amount leaving `deposit` for `receiverDeposit`. */
export const SHIPMENT_ENTITY = {
  name: 'test_shipment', kind: 'master', access: 'Deliveries', sync: true,
  label: t('Shipment'), pluralLabel: t('Shipments'), titleField: 'shipmentID', importKeys: ['shipmentID'], listColumns: ['shipmentID', 'status'],
  serverFields: ['history'],
  fields: [
    { id: 'shipmentID', label: t('Remito'), type: 'string', required: true, unique: true, searchable: true, sortable: true },
    { id: 'sendDate', label: t('Send date'), type: 'date', sortable: true },
    { id: 'deposit', label: t('Deposit'), type: 'reference', ref: 'company_division', required: true },
    { id: 'receiverDeposit', label: t('Receiver deposit'), type: 'reference', ref: 'company_division' },
    { id: 'status', label: t('Status'), type: 'string', options: ['Draft', 'In-Progress', 'Accepted', 'Cancelled'].map((v) => ({ value: v, label: t(v) })) },
    {
      id: 'productData', label: t('Products'), type: 'object', multiple: true,
      fields: [
        { id: 'material', label: t('Material'), type: 'reference', ref: 'material', required: true },
        { id: 'batchId', label: t('Batch'), type: 'string', required: true },
        { id: 'amount', label: t('Amount'), type: 'number', required: true },
        { id: 'uom', label: t('Unit'), type: 'string' },
      ],
    },
    { id: 'history', label: t('History'), type: 'object', multiple: true, fields: [{ id: 'transition', label: t('Transition'), type: 'string' }] },
  ],
};

const lines = { field: 'productData', material: 'material', batch: 'batchId', quantity: 'amount', unit: 'uom' };

export const SHIPMENT_WORKFLOW: WorkflowDef = {
  name: 'test_shipment', label: t('Shipments'), entity: 'test_shipment', access: 'Deliveries', stateField: 'status', initial: 'Draft',
  states: ['Draft', 'In-Progress', 'Accepted', 'Cancelled'].map((id) => ({ id, label: t(id), color: '#888' })),
  lines, depositFields: ['deposit', 'receiverDeposit'], dateField: 'sendDate', declarable: true,
  transitions: [
    { id: 'confirm', label: t('Confirm'), from: ['Draft'], to: 'In-Progress', access: 'Deliveries', at: 'deposit', effects: [{ type: 'removeStock', deposit: '$record.deposit' }] },
    { id: 'cancel', label: t('Cancel'), from: ['Draft'], to: 'Cancelled', access: 'Deliveries' },
    { id: 'acceptAll', label: t('Accept'), from: ['In-Progress'], to: 'Accepted', access: 'Reception', at: 'receiverDeposit', effects: [{ type: 'addStock', deposit: '$record.receiverDeposit' }] },
  ],
};

/** The real definitions plus the test shipment, its workflow added as the engine will read it. */
export function shipmentRegistry(): Registry {
  const root = mkdtempSync(join(tmpdir(), 'tm-wf-defs-'));
  try {
    cpSync(join(process.cwd(), 'schemas'), join(root, 'schemas'), { recursive: true });
    writeFileSync(join(root, 'schemas', 'entities', 'test_shipment.json'), JSON.stringify(SHIPMENT_ENTITY));
    const loaded = loadDefinitions(root);
    if (!loaded.registry) throw new Error(JSON.stringify(loaded.problems));
    return { ...loaded.registry, workflows: { ...loaded.registry.workflows, test_shipment: SHIPMENT_WORKFLOW } };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

class WorkflowError extends Error {
  override readonly name = 'WorkflowError';
  constructor(readonly code: string, readonly params: Record<string, unknown>) { super(code); }
}

/**
 * Stands in for the engine's planTransition until it is merged: state and transition checks,
 * stock out of / into the named deposit per line, history appended. Nothing more.
 */
export const testEngine: WorkflowEngine = {
  planTransition(_reg, wf, record, transitionId, input, ctx): TransitionPlan {
    const state = String(record[wf.stateField]);
    const tr = wf.transitions.find((x) => x.id === transitionId && x.from.includes(state));
    if (!tr) throw new WorkflowError('TRANSITION_NOT_ALLOWED', { transition: transitionId, state });
    const movements = (tr.effects ?? []).flatMap((e) => {
      if (e.type !== 'removeStock' && e.type !== 'addStock') return [];
      const deposit = String(record[String(e.deposit).replace('$record.', '')]);
      return (record.productData as Record<string, unknown>[]).map((l) => ({
        material: String(l.material), batch: String(l.batchId), deposit, quantity: (e.type === 'removeStock' ? -1 : 1) * Number(l.amount), unit: l.uom as string | undefined,
      }));
    });
    const history = [...((record.history as unknown[]) ?? []), { transition: tr.id, from: state, to: tr.to, by: ctx.userId, at: ctx.now, ...(input.comment ? { comment: input.comment } : {}) }];
    const events = movements.length ? [{ type: 'ObjectEvent', action: 'OBSERVE', eventTime: ctx.now, bizStep: 'shipping' }] : [];
    return { record: { ...record, [wf.stateField]: tr.to, history }, movements, lots: [], events, alerts: [], updates: [] };
  },
  availableTransitions(wf, record, access, superadmin) {
    return wf.transitions.filter((x) => x.from.includes(String(record[wf.stateField])) && (superadmin || access.includes(x.access)));
  },
};

/** A material, a lot, two divisions and a warehouse group holding the first: what a shipment needs. */
export async function seedShipping(store: Store): Promise<{ material: string; uom: string; lot: string; from: string; to: string; group: { id: string; name: string } }> {
  const uom = await store.insert('units_of_measurement', { name: 'Kilogram', code: 'KG', state: 1 });
  const material = await store.insert('material', { name: 'Glyphosate 48', uom: uom.id, state: 1 });
  const company = await store.insert('company', { company_name: 'Agro SA', state: 1 });
  const division = (name: string) => store.insert('company_division', {
    division_name: name, division_type: 'deposit', senasa_id_type: 'x', erp_id: name, company_id: company.id, country: 'AR', state: 1,
  });
  const from = await division('North depot');
  const to = await division('South depot');
  await store.insert('lot', { number: 'L-001', material: material.id, expirationDate: '2030-01-31', elaborationDate: '2025-01-01' });
  const group = await store.insert('group', { name: 'North', access: 'Deliveries', warehouses: [from.id], state: 1 });
  return { material: material.id, uom: uom.id, lot: 'L-001', from: from.id, to: to.id, group: { id: group.id, name: 'North' } };
}

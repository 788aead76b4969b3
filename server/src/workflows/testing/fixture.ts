import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Registry, WorkflowDef } from '../../../../engine/src/index';
import { copyDefinitions, loadDefinitions } from '../../../../definitions/read';
import type { Store } from '../../store/types';

const t = (en: string) => ({ en, es: en, fr: en });

/** A small delivery-like operation: lines of material, batch and amount leaving `deposit` for `receiverDeposit`. */
export const SHIPMENT_ENTITY = {
  name: 'test_shipment', kind: 'operation', access: 'Deliveries', sync: true,
  label: t('Shipment'), pluralLabel: t('Shipments'), titleField: 'shipmentID', importKeys: ['shipmentID'], listColumns: ['shipmentID', 'status'],
  serverFields: ['status', 'history'],
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
    {
      id: 'history', label: t('History'), type: 'object', multiple: true,
      fields: ['transition', 'from', 'to', 'by', 'at', 'comment'].map((id) => ({ id, label: t(id), type: 'string' })),
    },
  ],
};

const lines = { field: 'productData', material: 'material', batch: 'batchId', quantity: 'amount', unit: 'uom' };

export const SHIPMENT_WORKFLOW: WorkflowDef = {
  name: 'test_shipment', label: t('Shipments'), entity: 'test_shipment', access: 'Deliveries', stateField: 'status', initial: 'Draft',
  states: ['Draft', 'In-Progress', 'Accepted', 'Cancelled'].map((id) => ({ id, label: t(id), color: '#888' })),
  lines, depositFields: ['deposit', 'receiverDeposit'], dateField: 'sendDate', declarable: true,
  transitions: [
    {
      id: 'confirm', label: t('Confirm'), from: ['Draft'], to: 'In-Progress', access: 'Deliveries', at: 'deposit', comment: 'optional',
      effects: [{ type: 'removeStock', deposit: '$record.deposit' }, { type: 'emitEvent', event: { type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'shipping', disposition: 'in_transit', readPoint: '$record.deposit' } }],
    },
    { id: 'cancel', label: t('Cancel'), from: ['Draft'], to: 'Cancelled', access: 'Deliveries' },
    { id: 'acceptAll', label: t('Accept'), from: ['In-Progress'], to: 'Accepted', access: 'Reception', at: 'receiverDeposit', effects: [{ type: 'addStock', deposit: '$record.receiverDeposit' }] },
  ],
};

/** The real definitions plus the test shipment and its workflow. */
export function shipmentRegistry(): Registry {
  const root = mkdtempSync(join(tmpdir(), 'tm-wf-defs-'));
  try {
    copyDefinitions(process.cwd(), root);
    writeFileSync(join(root, 'schemas', 'entities', 'test_shipment.json'), JSON.stringify(SHIPMENT_ENTITY));
    writeFileSync(join(root, 'schemas', 'workflows', 'test_shipment.json'), JSON.stringify(SHIPMENT_WORKFLOW));
    const deployment = join(root, 'schemas', 'deployment.json');
    const def = JSON.parse(readFileSync(deployment, 'utf8'));
    def.settings.sync.deadlineMinutes.test_shipment = 15;
    writeFileSync(deployment, JSON.stringify(def));
    const loaded = loadDefinitions(root);
    if (!loaded.registry) throw new Error(JSON.stringify(loaded.problems));
    return loaded.registry;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

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

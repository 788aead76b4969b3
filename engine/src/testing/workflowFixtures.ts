import type { DefinitionSource } from '../registry/load';
import { loadRegistry } from '../registry/load';
import type { Registry } from '../registry/registry';
import { fixtureSources } from './fixtures';

const t = (en: string) => ({ en, es: `${en} (es)`, fr: `${en} (fr)` });

const history = {
  id: 'history', label: t('History'), type: 'object', multiple: true, fields: [
    { id: 'transition', label: t('Transition'), type: 'string' }, { id: 'from', label: t('From'), type: 'string' },
    { id: 'to', label: t('To'), type: 'string' }, { id: 'by', label: t('By'), type: 'string' },
    { id: 'at', label: t('At'), type: 'datetime' }, { id: 'comment', label: t('Comment'), type: 'string' },
  ],
};
const deposit = (id: string, label: string) => ({ id, label: t(label), type: 'reference', ref: 'company_division' });
const SHIPMENT_STATES = ['Draft', 'In-Progress', 'Accepted', 'Partial Reject', 'Total Reject', 'Rejection Accepted', 'Cancelled'];

/** A delivery-like operation: lines shipped from one deposit, received (all, part or none) at another. */
export const SHIPMENT_WORKFLOW = {
  name: 'shipment', label: t('Shipments'), entity: 'shipment', access: 'Deliveries', stateField: 'status', initial: 'Draft',
  depositFields: ['deposit', 'receiverDeposit'], dateField: 'sendDate', declarable: true,
  lines: { field: 'lines', material: 'material', batch: 'batch', quantity: 'amount', unit: 'uom', rejected: 'rejected', accepted: 'accepted' },
  states: SHIPMENT_STATES.map((id, i) => ({ id, label: t(id), color: ['#999', '#36c', '#3a3', '#e90', '#c33', '#777', '#555'][i], ...(i >= 2 && i !== 3 && i !== 4 ? { final: true } : {}) })),
  transitions: [
    {
      id: 'confirm', label: t('Confirm'), from: ['Draft'], to: 'In-Progress', access: 'Deliveries', at: 'deposit', requires: ['shipmentID', 'receiverDeposit'],
      effects: [
        { type: 'removeStock', deposit: '$record.deposit' },
        { type: 'emitEvent', event: { type: 'ObjectEvent', bizStep: 'shipping', disposition: 'in_transit', readPoint: '$record.deposit', bizLocation: '$record.deposit', bizTransaction: { type: 'desadv', value: '$record.shipmentID' }, source: [{ type: 'location', value: '$record.deposit' }], destination: [{ type: 'location', value: '$record.receiverDeposit' }] } },
        { type: 'setSyncPending' },
      ],
    },
    { id: 'cancel', label: t('Cancel'), from: ['Draft'], to: 'Cancelled', access: 'Deliveries', comment: 'none' },
    {
      id: 'acceptAll', label: t('Accept all'), from: ['In-Progress'], to: 'Accepted', access: 'Reception', at: 'receiverDeposit',
      setLines: { set: { rejected: 0 } },
      effects: [
        { type: 'addStock', deposit: '$record.receiverDeposit', quantity: '$line.accepted', lot: { expirationDate: '$line.expires' } },
        { type: 'emitEvent', event: { type: 'ObjectEvent', bizStep: 'urn:epcglobal:cbv:bizstep:receiving', disposition: 'in_progress', readPoint: '$record.receiverDeposit', quantity: '$line.accepted' } },
      ],
    },
    {
      id: 'partialReject', label: t('Reject part'), from: ['In-Progress'], to: 'Partial Reject', access: 'Reception', at: 'receiverDeposit', input: ['lines', 'receivedDate'],
      guard: { lines: { $elemMatch: { rejected: { $gt: 0 } } } }, guardMessage: t('reject some quantity of a line'),
      effects: [
        { type: 'addStock', deposit: '$record.receiverDeposit', quantity: '$line.accepted' },
        { type: 'emitEvent', event: { type: 'ObjectEvent', bizStep: 'receiving', disposition: 'in_progress', readPoint: '$record.receiverDeposit', quantity: '$line.accepted' } },
      ],
    },
    {
      id: 'totalReject', label: t('Reject all'), from: ['In-Progress'], to: 'Total Reject', access: 'Reception', at: 'receiverDeposit', comment: 'required',
      setLines: { set: { rejected: '$line.amount' } },
      effects: [
        { type: 'emitEvent', event: { type: 'ObjectEvent', bizStep: 'receiving', readPoint: '$record.receiverDeposit', quantity: '$line.accepted' } },
        { type: 'raiseAlert', title: t('Shipment rejected'), description: t('A shipment was rejected in full'), severity: 'warning' },
      ],
    },
    {
      id: 'acceptRejection', label: t('Accept the rejection'), from: ['Partial Reject', 'Total Reject'], to: 'Rejection Accepted', access: 'Deliveries', at: 'deposit',
      effects: [
        { type: 'addStock', deposit: '$record.deposit', quantity: '$line.rejected' },
        { type: 'emitEvent', event: { type: 'ObjectEvent', bizStep: 'receiving', disposition: 'returned', readPoint: '$record.deposit', quantity: '$line.rejected' } },
        { type: 'updateRecord', entity: 'company_division', id: '$record.deposit', set: { last_return: '$now' } },
      ],
    },
  ],
};

/** A production batch: the record is its own output line; consumed inputs are its lines. */
export const BATCH_WORKFLOW = {
  name: 'batch_declaration', label: t('Batch declarations'), entity: 'batch_declaration', access: 'Deliveries', stateField: 'status', initial: 'Draft',
  depositFields: ['deposit'], dateField: 'producedOn',
  states: [{ id: 'Draft', label: t('Draft'), color: '#999' }, { id: 'Declared', label: t('Declared'), color: '#3a3', final: true }],
  transitions: [{
    id: 'declare', label: t('Declare'), from: ['Draft'], to: 'Declared', access: 'Deliveries', at: 'deposit',
    effects: [
      { type: 'removeStock', deposit: '$record.deposit', lines: { field: 'inputs', material: 'material', batch: 'batch', quantity: 'quantity' } },
      { type: 'addStock', deposit: '$record.deposit', lines: { field: '.', material: 'material', batch: 'batch', quantity: 'quantity' }, lot: { elaborationDate: '$record.producedOn', expirationDate: '$record.expiresOn' } },
      { type: 'emitEvent', event: { type: 'TransformationEvent', bizStep: 'commissioning', disposition: 'active', readPoint: '$record.deposit', bizTransaction: { type: 'prodorder', value: '$record.order' }, inputs: { field: 'inputs', material: 'material', batch: 'batch', quantity: 'quantity' }, outputs: { field: '.', material: 'material', batch: 'batch', quantity: 'quantity' } } },
    ],
  }],
};

const lineFields = [
  { id: 'material', label: t('Material'), type: 'reference', ref: 'material', required: true },
  { id: 'batch', label: t('Batch'), type: 'string', required: true },
  { id: 'amount', label: t('Amount'), type: 'number', required: true },
  { id: 'uom', label: t('Unit'), type: 'string' },
  { id: 'rejected', label: t('Rejected'), type: 'number' },
  { id: 'accepted', label: t('Accepted'), type: 'number' },
  { id: 'expires', label: t('Expires'), type: 'date' },
];

/** fixtureSources plus deposits, two operation entities and their workflows. */
export function workflowSources(over: Partial<Record<string, unknown>> = {}): DefinitionSource[] {
  const base = fixtureSources();
  const access = JSON.parse(base.find((s) => s.path === 'schemas/access.json')!.text);
  access.keys.push({ key: 'Deliveries', label: t('Deliveries') }, { key: 'Reception', label: t('Reception') });
  return fixtureSources({
    'schemas/access.json': access,
    'schemas/entities/company_division.json': {
      name: 'company_division', kind: 'master', label: t('Division'), pluralLabel: t('Divisions'), titleField: 'division_name',
      fields: [{ id: 'division_name', label: t('Name'), type: 'string', required: true }, { id: 'gln', label: t('GLN'), type: 'string' }, { id: 'last_return', label: t('Last return'), type: 'datetime' }],
    },
    'schemas/entities/shipment.json': {
      name: 'shipment', kind: 'operation', sync: true, label: t('Shipment'), pluralLabel: t('Shipments'),
      fields: [
        { id: 'shipmentID', label: t('Remito'), type: 'string', unique: true },
        { id: 'sendDate', label: t('Send date'), type: 'date' },
        { id: 'receivedDate', label: t('Received on'), type: 'date' },
        deposit('deposit', 'Deposit'), deposit('receiverDeposit', 'Receiver deposit'),
        { id: 'status', label: t('Status'), type: 'string', options: SHIPMENT_STATES.map((value) => ({ value, label: t(value) })) },
        { id: 'lines', label: t('Products'), type: 'object', multiple: true, fields: lineFields },
        history,
      ],
    },
    'schemas/entities/batch_declaration.json': {
      name: 'batch_declaration', kind: 'operation', label: t('Batch declaration'), pluralLabel: t('Batch declarations'),
      fields: [
        { id: 'order', label: t('Order'), type: 'string' }, { id: 'producedOn', label: t('Produced on'), type: 'date' }, { id: 'expiresOn', label: t('Expires on'), type: 'date' },
        deposit('deposit', 'Deposit'), { id: 'material', label: t('Material'), type: 'reference', ref: 'material' },
        { id: 'batch', label: t('Batch'), type: 'string' }, { id: 'quantity', label: t('Quantity'), type: 'number' },
        { id: 'status', label: t('Status'), type: 'string' },
        { id: 'inputs', label: t('Inputs'), type: 'object', multiple: true, fields: lineFields.slice(0, 2).concat([{ id: 'quantity', label: t('Quantity'), type: 'number', required: true }]) },
        history,
      ],
    },
    'schemas/workflows/shipment.json': SHIPMENT_WORKFLOW,
    'schemas/workflows/batch_declaration.json': BATCH_WORKFLOW,
    ...over,
  });
}

export function workflowRegistry(): Registry {
  const { registry, problems } = loadRegistry(workflowSources());
  if (!registry) throw new Error(problems.map((p) => `${p.file}:${p.pointer}: ${p.message}`).join('\n'));
  return registry;
}

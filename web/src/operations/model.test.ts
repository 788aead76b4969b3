import { describe, expect, it } from 'vitest';
import { requireDefinitions } from '../../../definitions/read';
import { buildRouteTable, routesFor, type EntityDef, type FieldDef, type Registry, type WorkflowDef } from '../../../engine/src/index';
import { goToFor } from './links';
import { buildForm, withoutPaths } from '../masterdata/formSchema';
import { operationParams, queryString } from './api';
import {
  commentMissing, formOmissions, historyOf, inputParts, isEditable, lineParts, linesOf, materialPathOf, operationView, stateBadge, stateParam, stockSourceField, syncInfo, syncState, transitionBody,
} from './model';
import { firstExpiredFirst, valueAt } from '../masterdata/widgets/batchLogic';
import { frameDataOf } from '../guest/useGuestFrame';

const base = requireDefinitions(process.cwd());
const t = (en: string) => ({ en, es: `${en} (es)`, fr: `${en} (fr)` });
const f = (id: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}) => ({ id, label: t(id), type, ...extra }) as FieldDef;

const lineFields = [f('material', 'reference', { ref: 'material' }), f('batchId', 'string', { widget: 'batch' }), f('amount', 'number'), f('uom', 'string'), f('rejected', 'number'), f('accepted', 'number')];
const shipment: EntityDef = {
  ...base.entities.lot,
  name: 'shipment_test',
  fields: [f('shipmentID', 'string'), f('deposit', 'reference', { ref: 'company_division' }), f('receiverDeposit', 'reference', { ref: 'company_division' }),
    f('note', 'string'), f('productData', 'object', { multiple: true, fields: lineFields }), f('deliveryStatus', 'string')],
};
const lines = { field: 'productData', material: 'material', batch: 'batchId', quantity: 'amount', unit: 'uom', rejected: 'rejected', accepted: 'accepted' };
const workflow: WorkflowDef = {
  name: 'shipment_test', label: t('Shipments'), entity: 'shipment_test', access: 'Deliveries', stateField: 'deliveryStatus', initial: 'Draft',
  states: [
    { id: 'Draft', label: t('Draft'), color: '#607d8b' },
    { id: 'In-Progress', label: t('In progress'), color: '#1976d2' },
    { id: 'Partial Reject', label: t('Partial reject'), color: '#f57c00' },
  ],
  transitions: [
    { id: 'cancel', label: t('Cancel'), from: ['Draft'], to: 'Cancelled', access: 'Deliveries' },
    { id: 'confirm', label: t('Confirm'), from: ['Draft'], to: 'In-Progress', access: 'Deliveries', effects: [{ type: 'setSyncPending' }, { type: 'removeStock', deposit: '$record.deposit' }] },
    { id: 'partialReject', label: t('Reject part'), from: ['In-Progress'], to: 'Partial Reject', access: 'Reception', input: ['productData', 'note', 'nope'], comment: 'optional' },
  ],
  lines, depositFields: ['receiverDeposit', 'deposit'], dateField: 'sendDate', declarable: true,
};
const registry: Registry = {
  ...base,
  entities: { ...base.entities, shipment_test: shipment },
  workflows: { shipment_test: workflow },
  features: {
    ...base.features,
    features: [
      ...base.features.features,
      { id: 'shipments', path: '/shipments', name: t('Shipments'), render: 'external', operation: { workflow: 'shipment_test' } },
      { id: 'tray', path: '/tray', name: t('Tray'), render: 'external', operation: { workflow: 'shipment_test', depositField: 'receiverDeposit', states: ['In-Progress'], create: false } },
      { id: 'ghost', path: '/ghost', name: t('Ghost'), render: 'external', operation: { workflow: 'missing' } },
    ],
  },
};

describe('operationView', () => {
  it('finds the workflow and entity of a feature with an operation, with its deposit side, states and create flag', () => {
    const v = operationView(registry, 'shipments')!;
    expect(v.workflow.name).toBe('shipment_test');
    expect(v.entity).toBe('shipment_test');
    expect(v.depositField).toBe('receiverDeposit');
    expect(v.states.map((s) => s.id)).toEqual(['Draft', 'In-Progress', 'Partial Reject']);
    expect(v.create).toBe(true);
    const tray = operationView(registry, 'tray')!;
    expect(tray.depositField).toBe('receiverDeposit');
    expect(tray.states.map((s) => s.id)).toEqual(['In-Progress']);
    expect(tray.create).toBe(false);
  });

  it('is null for a feature without an operation, an unknown feature and an unknown workflow (the stand-in stays)', () => {
    expect(operationView(registry, registry.features.features.find((x) => !x.operation)!.id)).toBeNull();
    expect(operationView(registry, 'nowhere')).toBeNull();
    expect(operationView(registry, 'ghost')).toBeNull();
  });

  it('lists batches at the deposit the initial state\'s removal takes stock from', () => {
    expect(stockSourceField(operationView(registry, 'shipments')!)).toBe('deposit');
    expect(stockSourceField({ workflow: { ...workflow, transitions: [] }, depositField: 'receiverDeposit' })).toBe('receiverDeposit');
  });
});

describe('states, sync and history', () => {
  it('labels a state in the language with its colour; an undeclared one shows its id in grey', () => {
    expect(stateBadge(workflow, 'In-Progress', 'es')).toEqual({ id: 'In-Progress', label: 'In progress (es)', color: '#1976d2' });
    expect(stateBadge(workflow, 'Gone', 'en')).toEqual({ id: 'Gone', label: 'Gone', color: '#9e9e9e' });
    expect(stateBadge(workflow, undefined, 'en').id).toBe('');
  });

  it('edits only records in the initial state', () => {
    expect(isEditable(workflow, { deliveryStatus: 'Draft' })).toBe(true);
    expect(isEditable(workflow, { deliveryStatus: 'In-Progress' })).toBe(false);
  });

  it('reads the Senasa Sync state: an empty or absent status is pending', () => {
    expect(syncState({})).toBe('pending');
    expect(syncState({ sync: { status: '' } })).toBe('pending');
    expect(syncState({ sync: { status: 'synced' } })).toBe('synced');
    expect(syncState({ sync: { status: 'failed' } })).toBe('failed');
  });

  it('filters on the chosen state, else on the states a work tray shows', () => {
    expect(stateParam(operationView(registry, 'shipments')!, null)).toBeUndefined();
    expect(stateParam(operationView(registry, 'tray')!, null)).toEqual(['In-Progress']);
    expect(stateParam(operationView(registry, 'tray')!, 'Draft')).toEqual(['Draft']);
  });

  it('keeps only well-formed history entries', () => {
    const h = { transition: 'confirm', from: 'Draft', to: 'In-Progress', by: 'u1', at: '2025-01-02T10:00:00Z' };
    expect(historyOf({ history: [h, null, { x: 1 }] })).toEqual([h]);
    expect(historyOf({})).toEqual([]);
  });
});

describe('lines and transitions', () => {
  const record = { productData: [{ material: 'm1', batchId: 'L1', amount: 10, uom: 'kg' }, 'junk'] };

  it('reads the lines and what each names', () => {
    expect(linesOf(lines, record)).toHaveLength(1);
    expect(linesOf({ ...lines, field: '.' }, { material: 'm' })).toEqual([{ material: 'm' }]);
    expect(lineParts(lines, linesOf(lines, record)[0])).toEqual({ material: 'm1', batch: 'L1', quantity: 10, unit: 'kg' });
  });

  it('asks line paths as a table of the lines where only those line fields are typed, and any other input field as itself', () => {
    for (const input of [['productData.rejected', 'note', 'nope'], ['productData', 'note']]) {
      const parts = inputParts(registry, workflow, input);
      expect(parts).toHaveLength(2);
      expect(parts[0]).toMatchObject({ kind: 'lines', field: 'productData' });
      if (parts[0].kind !== 'lines') throw new Error('lines expected');
      expect(parts[0].editable.map((x) => x.id)).toEqual(['rejected']);
      expect(parts[0].shown.map((x) => x.id)).toEqual(['material', 'batchId', 'amount', 'uom']);
      expect(parts[1]).toMatchObject({ kind: 'field', field: { id: 'note' } });
    }
  });

  it('sends the values under the input\'s fields, shaped like the record, and a written comment', () => {
    expect(transitionBody({ input: ['productData.rejected', 'receivedDate'] }, { productData: [{ rejected: 2 }], deliveryStatus: 'x' }, '  late truck '))
      .toEqual({ comment: 'late truck', fields: { productData: [{ rejected: 2 }] } });
    expect(transitionBody({}, { a: 1 }, '   ')).toEqual({});
  });

  it('needs a comment only when the transition requires one', () => {
    expect(commentMissing('required', ' ')).toBe(true);
    expect(commentMissing('required', 'why')).toBe(false);
    expect(commentMissing('optional', '')).toBe(false);
    expect(commentMissing(undefined, '')).toBe(false);
  });
});

describe('the draft form', () => {
  it('leaves out the state, history, server fields, the per-line rejected and accepted quantities, the line units the server fills and fields only later transitions ask for', () => {
    const wf: WorkflowDef = { ...workflow, transitions: [...workflow.transitions, { id: 'accept', label: t('Accept'), from: ['In-Progress'], to: 'Accepted', access: 'x', input: ['receivedDate'] }, { id: 'ship', label: t('Ship'), from: ['Draft'], to: 'In-Progress', access: 'x', input: ['note'] }] };
    expect(formOmissions({ workflow: wf }, ['history', 'shipmentType']).sort())
      .toEqual(['deliveryStatus', 'history', 'nope', 'productData.accepted', 'productData.rejected', 'productData.uom', 'receivedDate', 'shipmentType']);
  });

  it('drops omitted fields, nested ones too, from the generated form', () => {
    const built = buildForm(registry, 'shipment_test', 'en', 'create', ['deliveryStatus', 'productData.rejected'])!;
    const props = built.schema.properties as Record<string, { items?: { properties?: Record<string, unknown> } }>;
    expect(props.deliveryStatus).toBeUndefined();
    expect(Object.keys(props.productData.items!.properties!)).toEqual(['material', 'batchId', 'amount', 'uom', 'accepted']);
    expect(withoutPaths(lineFields, new Set(['amount'])).map((x) => x.id)).not.toContain('amount');
  });
});

describe('list and stock calls', () => {
  it('sends the filters, leaving out empty ones and the first page', () => {
    expect(operationParams({ state: ['In-Progress'], from: '2025-01-01', to: '', deposit: 'd1', depositField: 'receiverDeposit', q: ' ', sync: 'failed', page: 1, pageSize: 20, sort: '-sendDate' }))
      .toBe('?state=In-Progress&from=2025-01-01&deposit=d1&depositField=receiverDeposit&sync=failed&pageSize=20&sort=-sendDate');
    expect(operationParams({ page: 3 })).toBe('?page=3');
    expect(operationParams({})).toBe('');
    expect(queryString({ material: 'm 1', deposit: undefined })).toBe('?material=m+1');
  });
});

describe('batch picker', () => {
  it('finds the material of the line a batch field is in, by the workflow\'s or an effect\'s lines', () => {
    const value = { deposit: 'd1', material: 'top', productData: [{ material: 'm0' }, { material: 'm1', batchId: '' }], consumption: [{ material: 'ai' }] };
    expect(valueAt(value, materialPathOf(workflow, ['productData', 1, 'batchId'])!)).toBe('m1');
    const declaration: WorkflowDef = {
      ...workflow, lines: { field: '.', material: 'material', batch: 'batchId', quantity: 'quantity' },
      transitions: [{ id: 'declare', label: t('Declare'), from: ['Draft'], to: 'Declared', access: 'x', effects: [{ type: 'removeStock', deposit: '$record.deposit', lines: { field: 'consumption', material: 'material', batch: 'batchId', quantity: 'quantity' } }] }],
    };
    expect(materialPathOf(declaration, ['consumption', 0, 'batchId'])).toEqual(['consumption', 0, 'material']);
    expect(valueAt(value, materialPathOf(declaration, ['batchId'])!)).toBe('top');
    expect(materialPathOf(declaration, ['productData', 0, 'batchId'])).toBeNull();
    expect(materialPathOf(workflow, ['productData', 'x', 'batchId'])).toBeNull();
  });

  it('orders batches first-expired first, undated last', () => {
    const rows = [{ batch: 'C', quantity: 1 }, { batch: 'B', quantity: 1, expirationDate: '2026-05-01' }, { batch: 'A', quantity: 1, expirationDate: '2025-12-01' }];
    expect(firstExpiredFirst(rows).map((r) => r.batch)).toEqual(['A', 'B', 'C']);
  });
});

describe('frame data', () => {
  it('reads the selected warehouse group and the list from parentFrameData, and nothing else', () => {
    const g = { name: 'Córdoba Hub', warehouseList: [] };
    expect(frameDataOf({ type: 'parentFrameData', payload: { warehouse: g, warehouseList: [g] } })).toEqual({ warehouse: g, warehouseList: [g] });
    expect(frameDataOf({ type: 'parentFrameData', payload: { warehouse: null } })).toEqual({ warehouse: null, warehouseList: [] });
    expect(frameDataOf({ type: 'languagePref', payload: {} })).toBeNull();
    expect(frameDataOf(null)).toBeNull();
  });
});

describe('links to other features', () => {
  const routes = buildRouteTable(registry, 'en');
  const admin = { access: [registry.access.superadmin], groups: [] };
  const ctx = { registry, principal: admin, allowed: routesFor(routes, admin, registry.access.superadmin) };
  const material = lineFields[0];

  it('opens a reference in master data and a batch in its lot\'s traceability when the user may', () => {
    expect(goToFor(ctx, material, 'm1')).toEqual({ type: 'masterdata', query: { entity: 'material', id: 'm1' } });
    expect(goToFor(ctx, lineFields[1], 'L1', true)).toEqual({ type: 'lot', query: { lot: 'L1' } });
  });

  it('is plain text for other values and for a user without master data', () => {
    expect(goToFor(ctx, lineFields[2], 10)).toBeNull();
    expect(goToFor(ctx, f('note', 'string'), 'x')).toBeNull();
    expect(goToFor(ctx, material, '')).toBeNull();
    const nobody = { access: [], groups: [] };
    expect(goToFor({ registry, principal: nobody, allowed: routesFor(routes, nobody, registry.access.superadmin) }, material, 'm1')).toBeNull();
  });
});

describe('syncInfo', () => {
  const now = new Date('2026-06-15T12:00:00Z');
  it('marks a pending record past its deadline overdue, and only a pending one', () => {
    expect(syncInfo({ sync: { status: '', deadline: '2026-06-15T11:59:00Z' } }, now)).toMatchObject({ state: 'pending', overdue: true });
    expect(syncInfo({ sync: { status: '', deadline: '2026-06-15T12:01:00Z' } }, now)).toMatchObject({ state: 'pending', overdue: false });
    // Declared late is still declared: no deadline shown, not overdue.
    expect(syncInfo({ sync: { status: 'synced', deadline: '2026-06-14T00:00:00Z', transactionId: 'T-1' } }, now)).toMatchObject({ state: 'synced', overdue: false, deadline: undefined, transactionId: 'T-1' });
  });
  it('gives a refusal its reason, and no reason to a record that is not refused', () => {
    expect(syncInfo({ sync: { status: 'failed', reason: 'GTIN unknown' } }, now).reason).toBe('GTIN unknown');
    expect(syncInfo({ sync: { status: 'synced', reason: 'old' } }, now).reason).toBeUndefined();
    expect(syncInfo({}, now)).toMatchObject({ state: 'pending', overdue: false });
  });
});

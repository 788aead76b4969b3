import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../registry/load';
import type { Registry } from '../registry/registry';
import { sanitiseWorkflow } from '../registry/sanitise';
import { workflowSources } from '../testing/workflowFixtures';
import { assetUri, buildEvent } from './events';
import { MAX_RECORD_DEPTH, planTransition, WorkflowError, type PlanContext, type PlanInput } from './plan';
import type { WorkflowDefinition } from './types';
// The GS1 artefact itself, as published (see events.test.ts).
import schema from '../../../../shared/epcis/EPCIS-JSON-Schema.json';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

type Rec = Record<string, unknown>;
const t = (en: string) => ({ en, es: `${en} (es)`, fr: `${en} (fr)` });
const history = {
  id: 'history', label: t('History'), type: 'object', multiple: true, fields: ['transition', 'from', 'to', 'by', 'at'].map((id) => ({ id, label: t(id), type: 'string' })),
};
const IBC_STATES = ['in_stock_empty', 'prepared', 'in_transit', 'at_customer', 'returned'];

/** A returnable container: a master record whose life cycle is a workflow of its own. */
const ibcEntity = {
  name: 'ibc_container', kind: 'master', label: t('IBC'), pluralLabel: t('IBCs'), titleField: 'serial_number',
  fields: [
    { id: 'serial_number', label: t('Serial number'), type: 'string', required: true },
    { id: 'status', label: t('Status'), type: 'string' },
    { id: 'deposit_id', label: t('Deposit'), type: 'reference', ref: 'company_division' },
    { id: 'customer', label: t('Customer'), type: 'string' },
    { id: 'inTransitTo', label: t('In transit to'), type: 'reference', ref: 'company_division' },
    { id: 'returnState', label: t('Return state'), type: 'string', options: [{ value: 'empty', label: t('Empty') }, { value: 'full', label: t('Full') }] },
    { id: 'numberOfUses', label: t('Uses'), type: 'integer' },
    { id: 'topSeal', label: t('Top seal'), type: 'string' },
    { id: 'nfcTagNumber', label: t('NFC tag'), type: 'string' },
    { id: 'nextInspectionDate', label: t('Next inspection'), type: 'date' },
    { id: 'endOfLife', label: t('End of life'), type: 'date' },
    {
      id: 'content', label: t('Content'), type: 'object', fields: [
        { id: 'material', label: t('Material'), type: 'reference', ref: 'material' }, { id: 'batch', label: t('Batch'), type: 'string' },
        { id: 'quantity', label: t('Quantity'), type: 'number' }, { id: 'uom', label: t('Unit'), type: 'string' },
      ],
    },
    history,
  ],
};

/** An operation filling the IBCs it lists from one lot. */
const fillingEntity = {
  name: 'filling', kind: 'operation', label: t('Filling'), pluralLabel: t('Fillings'), titleField: 'batchNumber',
  fields: [
    { id: 'batchNumber', label: t('Batch number'), type: 'string' },
    { id: 'deposit', label: t('Deposit'), type: 'reference', ref: 'company_division' },
    { id: 'receiverDeposit', label: t('Receiver deposit'), type: 'reference', ref: 'company_division' },
    { id: 'material', label: t('Material'), type: 'reference', ref: 'material' }, { id: 'batchId', label: t('Lot'), type: 'string' },
    { id: 'uom', label: t('Unit'), type: 'string' }, { id: 'status', label: t('Status'), type: 'string' },
    {
      id: 'containers', label: t('Containers'), type: 'object', multiple: true, fields: [
        { id: 'ibc', label: t('IBC'), type: 'reference', ref: 'ibc_container' }, { id: 'quantity', label: t('Quantity'), type: 'number' },
        { id: 'topSeal', label: t('Top seal'), type: 'string' }, { id: 'action', label: t('Action'), type: 'string' },
      ],
    },
    history,
  ],
};

const contentLines = { field: '.', material: 'content.material', batch: 'content.batch', quantity: 'content.quantity', unit: 'content.uom' };
const hasContent = { 'content.quantity': { $gt: 0 } };

const IBC: WorkflowDefinition = {
  name: 'ibc', label: t('IBC'), entity: 'ibc_container', access: 'ibcTraceability', stateField: 'status', initial: 'in_stock_empty',
  states: IBC_STATES.map((id) => ({ id, label: t(id.replace(/_/g, ' ')), color: '#777' })),
  depositFields: ['deposit_id'], dateField: 'nextInspectionDate', lines: contentLines,
  log: { entity: 'ibc_event', fields: { serial: '$record.serial_number', deposit: '$record.deposit_id', uses: '$record.numberOfUses' } },
  transitions: [
    {
      id: 'fill', label: t('Fill'), from: ['in_stock_empty'], to: 'prepared', access: 'IBC Batch Preparation', requires: ['topSeal'],
      input: ['topSeal', 'content.material', 'content.batch', 'content.quantity', 'content.uom'],
      refuse: [
        { when: { nextInspectionDate: { $lt: '$today' } }, message: t('IBC {serial_number} is past its periodic inspection date, {nextInspectionDate}') },
        { when: { endOfLife: { $exists: true }, $expr: { $lt: ['$endOfLife', '$today'] } }, message: t('IBC {serial_number} reached its end of life on {endOfLife}') },
      ],
      effects: [
        { type: 'setFields', inc: { numberOfUses: 1 } },
        { type: 'emitEvent', event: { type: 'ObjectEvent', bizStep: 'packing', disposition: 'container_closed', epcs: ['$record.serial_number'], readPoint: '$record.deposit_id' } },
      ],
    },
    {
      id: 'ship', label: t('Ship'), from: ['prepared'], to: 'in_transit', access: 'IBC Deliveries', input: ['inTransitTo'],
      effects: [
        { type: 'removeStock', deposit: '$record.deposit_id', when: hasContent },
        { type: 'emitEvent', event: { type: 'ObjectEvent', bizStep: 'shipping', disposition: 'in_transit', epcs: ['$record.serial_number'] } },
      ],
    },
    {
      id: 'receive', label: t('Receive'), from: ['in_transit'], to: 'at_customer', access: 'IBC Reception', input: ['deposit_id', 'customer'],
      effects: [{ type: 'setFields', set: { inTransitTo: null } }, { type: 'addStock', deposit: '$record.deposit_id', when: hasContent }],
    },
    {
      id: 'return', label: t('Return'), from: ['at_customer'], to: 'returned', access: 'IBC Returns', input: ['deposit_id', 'returnState'],
      effects: [
        { type: 'moveStock', from: '$before.deposit_id', to: '$record.deposit_id', when: { returnState: 'full', ...hasContent } },
        { type: 'setFields', set: { content: null }, when: { returnState: { $ne: 'full' } } },
        { type: 'setFields', set: { customer: null, lastDeposit: '$before.deposit_id' } },
      ],
    },
    { id: 'mapNfc', label: t('Map NFC tag'), from: IBC_STATES, access: 'Map IBC', input: ['nfcTagNumber'], requires: ['nfcTagNumber'] },
  ],
};

const FILLING: WorkflowDefinition = {
  name: 'filling', label: t('Filling'), entity: 'filling', access: 'IBC Batch Preparation', stateField: 'status', initial: 'Draft',
  states: ['Draft', 'Prepared', 'Shipped'].map((id) => ({ id, label: t(id), color: '#777' })), depositFields: ['deposit'], dateField: 'batchNumber',
  log: { entity: 'filling_log', fields: { number: '$record.batchNumber' } },
  transitions: [
    {
      id: 'confirm', label: t('Confirm'), from: ['Draft'], to: 'Prepared', access: 'IBC Batch Preparation',
      effects: [
        { type: 'removeStock', deposit: '$record.deposit', lines: { field: 'containers', material: '$record.material', batch: '$record.batchId', quantity: 'quantity', unit: '$record.uom' } },
        { type: 'addStock', deposit: '$record.deposit', lines: { field: 'containers', material: '$record.material', batch: '$record.batchId', quantity: 'quantity', unit: '$record.uom' } },
        {
          type: 'transitionRecords', workflow: 'ibc', transition: 'fill', records: { field: 'containers', id: 'ibc' },
          match: { deposit_id: '$record.deposit' },
          fields: { topSeal: '$line.topSeal', 'content.material': '$record.material', 'content.batch': '$record.batchId', 'content.quantity': '$line.quantity', 'content.uom': '$record.uom' },
        },
      ],
    },
    {
      // Each line says what its IBC does: the transition id is read from the line.
      id: 'dispatch', label: t('Dispatch'), from: ['Prepared'], to: 'Shipped', access: 'IBC Deliveries',
      effects: [{ type: 'transitionRecords', workflow: 'ibc', transition: '$line.action', records: { field: 'containers', id: 'ibc' }, fields: { inTransitTo: '$record.receiverDeposit' } }],
    },
  ],
};

/** A record whose transition touches its children, theirs touch theirs: how deep the engine follows. */
const NODE: WorkflowDefinition = {
  name: 'node', label: t('Node'), entity: 'ibc_container', access: 'ibcTraceability', stateField: 'status', initial: 'in_stock_empty',
  states: [{ id: 'in_stock_empty', label: t('Idle'), color: '#777' }], depositFields: ['deposit_id'], dateField: 'endOfLife',
  transitions: [{
    id: 'touch', label: t('Touch'), from: ['in_stock_empty'], access: 'ibcTraceability',
    effects: [{ type: 'setFields', inc: { numberOfUses: 1 } }, { type: 'transitionRecords', workflow: 'node', transition: 'touch', records: { field: 'children', id: 'id' } }],
  }],
};

function vocabularyRegistry(): Registry {
  const { registry, problems } = loadRegistry(workflowSources({
    'schemas/entities/ibc_container.json': ibcEntity,
    'schemas/entities/filling.json': fillingEntity,
  }));
  if (!registry) throw new Error(problems.map((p) => `${p.file}:${p.pointer}: ${p.message}`).join('\n'));
  // The new vocabulary is sanitised as the loader does; the meta-schema for it is another change's.
  return { ...registry, workflows: { ...registry.workflows, ibc: sanitiseWorkflow(IBC), filling: sanitiseWorkflow(FILLING), node: sanitiseWorkflow(NODE) } };
}

const reg = vocabularyRegistry();
const now = '2026-03-01T10:00:00.000-03:00';
const ibc = (id: string, over: Rec = {}): Rec => ({
  id, serial_number: `S-${id}`, status: 'in_stock_empty', deposit_id: 'd1', nextInspectionDate: '2027-01-01', createdAt: '2025-01-01T00:00:00.000Z', ...over,
});
const ibcs = (...list: Rec[]) => Object.fromEntries(list.map((r) => [r.id as string, r]));
const ctxWith = (records: Rec[] = [], over: Partial<PlanContext> = {}): PlanContext => ({
  userId: 'u1', now, lookup: { records: { ibc_container: ibcs(...records) }, places: { d1: 'Main plant', d2: 'Rosario', c9: 'Agro SA' } }, ...over,
});
const planIbc = (record: Rec, transition: string, input: PlanInput = {}, ctx = ctxWith()) => planTransition(reg, reg.workflows.ibc, record, transition, input, ctx);
const refusal = (f: () => unknown): WorkflowError => {
  try { f(); } catch (e) { if (e instanceof WorkflowError) return e; throw e; }
  throw new Error('no WorkflowError');
};
const filling = (over: Rec = {}): Rec => ({
  id: 'f1', batchNumber: 'B-1', deposit: 'd1', receiverDeposit: 'd2', material: 'm1', batchId: 'L1', uom: 'LTR', status: 'Draft',
  containers: [{ ibc: 'i1', quantity: 1000, topSeal: 'T1' }, { ibc: 'i2', quantity: 800, topSeal: 'T2' }, { ibc: 'i3', quantity: 900, topSeal: 'T3' }],
  ...over,
});
const fillInput = { fields: { topSeal: 'T9', content: { material: 'm1', batch: 'L1', quantity: 500, uom: 'LTR' } } };

describe('a transition without `to`', () => {
  it('keeps the state and records from = to in the history', () => {
    const p = planIbc(ibc('i1', { status: 'at_customer' }), 'mapNfc', { fields: { nfcTagNumber: 'NFC-7' } });
    expect(p.record).toMatchObject({ status: 'at_customer', nfcTagNumber: 'NFC-7' });
    expect(p.record.history).toEqual([{ transition: 'mapNfc', from: 'at_customer', to: 'at_customer', by: 'u1', at: now }]);
  });
});

describe('refuse rules', () => {
  it('refuse a record past a date compared with $today, naming it from the record in the asked language', () => {
    const e = refusal(() => planIbc(ibc('i1', { nextInspectionDate: '2026-02-28' }), 'fill', fillInput, ctxWith([], { lang: 'es' })));
    expect([e.code, e.params]).toEqual(['TRANSITION_REFUSED', { transition: 'Fill (es)', reason: 'IBC S-i1 is past its periodic inspection date, 2026-02-28 (es)' }]);
    expect(e.message).toBe('Fill (es) is refused: IBC S-i1 is past its periodic inspection date, 2026-02-28 (es)');
  });

  it('read $today as the day of the transition in its own offset: a date due today still passes', () => {
    // 23:30 at -03:00 is already the next day in UTC; the record's dates are the writer's days.
    const late = ctxWith([], { now: '2026-03-01T23:30:00.000-03:00' });
    expect(planIbc(ibc('i1', { nextInspectionDate: '2026-03-01' }), 'fill', fillInput, late).record.status).toBe('prepared');
    const nextDay = ctxWith([], { now: '2026-03-02T00:30:00.000-03:00' });
    expect(refusal(() => planIbc(ibc('i1', { nextInspectionDate: '2026-03-01' }), 'fill', fillInput, nextDay)).code).toBe('TRANSITION_REFUSED');
  });

  it('see $today inside $expr too, and are judged after the input is merged and after `requires`', () => {
    const e = refusal(() => planIbc(ibc('i1', { endOfLife: '2026-01-31' }), 'fill', fillInput));
    expect(e.params.reason).toBe('IBC S-i1 reached its end of life on 2026-01-31');
    expect(refusal(() => planIbc(ibc('i1', { endOfLife: '2026-01-31' }), 'fill', {})).code).toBe('TRANSITION_FIELD_REQUIRED');
    expect(planIbc(ibc('i1', { endOfLife: '2026-03-02' }), 'fill', fillInput).record.status).toBe('prepared');
  });
});

describe('setFields', () => {
  it('adds to a number, a blank one counting as 0, before the history entry', () => {
    expect(planIbc(ibc('i1'), 'fill', fillInput).record.numberOfUses).toBe(1);
    expect(planIbc(ibc('i1', { numberOfUses: 4 }), 'fill', fillInput).record.numberOfUses).toBe(5);
    const e = refusal(() => planIbc(ibc('i1', { numberOfUses: 'many' }), 'fill', fillInput));
    expect([e.code, e.field]).toEqual(['FORMAT_WRONG_TYPE', 'numberOfUses']);
  });

  it('sets dotted paths to resolved values, null clearing them', () => {
    const p = planIbc(ibc('i1', { status: 'in_transit', inTransitTo: 'd2' }), 'receive', { fields: { deposit_id: 'd2', customer: 'c9' } });
    expect(p.record).toMatchObject({ status: 'at_customer', inTransitTo: null, deposit_id: 'd2', customer: 'c9' });
  });
});

describe('effect conditions and the record before the transition', () => {
  const atCustomer = (content: Rec | null) => ibc('i1', { status: 'at_customer', deposit_id: 'd2', customer: 'c9', content });
  const full = { material: 'm1', batch: 'L1', quantity: 500, uom: 'LTR' };

  it('a full return moves the content from the deposit the IBC was at ($before) to the one it comes back to', () => {
    const p = planIbc(atCustomer(full), 'return', { fields: { deposit_id: 'd1', returnState: 'full' } });
    expect(p.movements).toEqual([
      { material: 'm1', batch: 'L1', deposit: 'd2', quantity: -500, unit: 'LTR' },
      { material: 'm1', batch: 'L1', deposit: 'd1', quantity: 500, unit: 'LTR' },
    ]);
    expect(p.record).toMatchObject({ content: full, customer: null, lastDeposit: 'd2', deposit_id: 'd1' });
  });

  it('an empty return skips the move (its `when` does not match) and clears the content', () => {
    const p = planIbc(atCustomer(full), 'return', { fields: { deposit_id: 'd1', returnState: 'empty' } });
    expect(p.movements).toEqual([]);
    expect(p.record).toMatchObject({ content: null, customer: null, lastDeposit: 'd2' });
  });

  it('a skipped effect does not check the lines it would walk: an empty IBC ships without stock', () => {
    const empty = planIbc(ibc('i1', { status: 'prepared' }), 'ship', { fields: { inTransitTo: 'd2' } });
    expect(empty.movements).toEqual([]);
    const loaded = planIbc(ibc('i1', { status: 'prepared', content: full }), 'ship', { fields: { inTransitTo: 'd2' } });
    expect(loaded.movements).toEqual([{ material: 'm1', batch: 'L1', deposit: 'd1', quantity: -500, unit: 'LTR' }]);
  });
});

describe('lines by dotted path and record-wide values', () => {
  it('stock effects read a line value from the record ($record.) and the quantity from each line', () => {
    const p = planTransition(reg, reg.workflows.filling, filling(), 'confirm', {}, ctxWith([ibc('i1'), ibc('i2'), ibc('i3')]));
    expect(p.movements.slice(0, 3)).toEqual([
      { material: 'm1', batch: 'L1', deposit: 'd1', quantity: -1000, unit: 'LTR' },
      { material: 'm1', batch: 'L1', deposit: 'd1', quantity: -800, unit: 'LTR' },
      { material: 'm1', batch: 'L1', deposit: 'd1', quantity: -900, unit: 'LTR' },
    ]);
    expect(p.movements.slice(3).map((m) => m.quantity)).toEqual([1000, 800, 900]);
  });

  it('a line quantity at a dotted path is checked there and named by its path', () => {
    const unguarded = sanitiseWorkflow({ ...IBC, transitions: [{ id: 'ship', label: t('Ship'), from: ['prepared'], to: 'in_transit', access: 'x', effects: [{ type: 'removeStock', deposit: '$record.deposit_id' }] }] });
    const e = refusal(() => planTransition(reg, unguarded, ibc('i1', { status: 'prepared', content: { material: 'm1', batch: 'L1', quantity: 0 } }), 'ship', {}, ctxWith()));
    expect([e.code, e.params, e.field]).toEqual(['QUANTITY_NOT_POSITIVE', { label: 'Quantity', value: 0 }, 'content.quantity']);
  });

  it('events list the quantities read at dotted paths, and plain keys still work (events.test.ts)', () => {
    const p = planIbc(ibc('i1'), 'fill', fillInput, ctxWith([], { lookup: { materials: { m1: { gtin: '7790001000017' } } } }));
    expect(p.events[0]).toMatchObject({ quantityList: [{ epcClass: 'https://id.gs1.org/01/07790001000017/10/L1', quantity: 500, uom: 'LTR' }] });
  });
});

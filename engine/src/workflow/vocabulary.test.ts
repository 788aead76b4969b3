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
        { type: 'emitEvent', event: { type: 'ObjectEvent', bizStep: 'packing', disposition: 'container_closed', epcs: ['$record.serial_number'], lines: contentLines, readPoint: '$record.deposit_id' } },
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

describe('asset epcs', () => {
  it('name the record by an asset URI; an event with epcs and no quantity validates against the EPCIS schema', () => {
    expect(assetUri('ibc_container', 'S/1 A')).toBe('urn:tracemesh:asset:ibc_container:S%2F1%20A');
    const p = planIbc(ibc('i1', { status: 'prepared', serial_number: 'S/1 A' }), 'ship', { fields: { inTransitTo: 'd2' } });
    expect(p.events).toHaveLength(1);
    const [event] = p.events;
    expect(event).toMatchObject({ type: 'ObjectEvent', action: 'OBSERVE', epcList: ['urn:tracemesh:asset:ibc_container:S%2F1%20A'], bizStep: 'shipping' });
    expect(event).not.toHaveProperty('quantityList');
    expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
  });

  it('list the content as quantities beside the epc when there is some, still valid EPCIS', () => {
    const [event] = planIbc(ibc('i1'), 'fill', fillInput).events;
    expect(event).toMatchObject({ epcList: ['urn:tracemesh:asset:ibc_container:S-i1'], quantityList: [{ epcClass: 'urn:tracemesh:class:m1:L1', quantity: 500, uom: 'LTR' }] });
    expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
    const doc = { '@context': event['@context'], type: 'EPCISDocument', schemaVersion: '2.0', creationDate: now, epcisBody: { eventList: [event] } };
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
  });

  it('an event with neither epcs nor quantities is not emitted', () => {
    const tpl = { type: 'ObjectEvent' as const, action: 'OBSERVE' as const, bizStep: 'shipping', epcs: ['$record.nothing'], lines: contentLines };
    expect(buildEvent(tpl, { scope: { record: ibc('i1'), userId: 'u1', now }, entity: 'ibc_container', key: 'k' })).toBeUndefined();
  });
});

describe('transitions over referenced records', () => {
  const three = () => [ibc('i1'), ibc('i2'), ibc('i3', { numberOfUses: 2, history: [{ transition: 'passQC', from: 'in_qc', to: 'in_stock_empty', by: 'u0', at: '2026-02-10T08:00:00.000Z' }] })];
  const confirm = (records: Rec[], record = filling(), ctx = ctxWith(records)) => planTransition(reg, reg.workflows.filling, record, 'confirm', {}, ctx);

  it('take the transition on every listed record, with its input, and join their writes to the plan', () => {
    const records = three();
    const p = confirm(records);
    expect(p.record.status).toBe('Prepared');
    expect(p.records.map((r) => [r.workflow, r.entity, r.id, r.before, r.record.status, r.record.topSeal, r.record.numberOfUses])).toEqual([
      ['ibc', 'ibc_container', 'i1', { state: 'in_stock_empty' }, 'prepared', 'T1', 1],
      ['ibc', 'ibc_container', 'i2', { state: 'in_stock_empty' }, 'prepared', 'T2', 1],
      ['ibc', 'ibc_container', 'i3', { state: 'in_stock_empty' }, 'prepared', 'T3', 3],
    ]);
    expect(p.records[1].record.content).toEqual({ material: 'm1', batch: 'L1', quantity: 800, uom: 'LTR' });
    expect((p.records[2].record.history as Rec[]).at(-1)).toEqual({ transition: 'fill', from: 'in_stock_empty', to: 'prepared', by: 'u1', at: now });
    // One event per IBC, each named uniquely and the same when planned again.
    expect(p.events.map((e) => e.epcList)).toEqual([['urn:tracemesh:asset:ibc_container:S-i1'], ['urn:tracemesh:asset:ibc_container:S-i2'], ['urn:tracemesh:asset:ibc_container:S-i3']]);
    expect(new Set(p.events.map((e) => e.eventID)).size).toBe(3);
    expect(confirm(three()).events.map((e) => e.eventID)).toEqual(p.events.map((e) => e.eventID));
    // Nothing handed in was changed.
    expect(records).toEqual(three());
  });

  it('refuse the whole operation when the second of three is in another state, naming it, its state and its place', () => {
    const records = [ibc('i1'), ibc('i2', { status: 'at_customer', deposit_id: 'd2', customer: 'c9' }), ibc('i3')];
    const e = refusal(() => confirm(records));
    expect([e.code, e.params, e.field]).toEqual([
      'RECORD_NOT_AVAILABLE', { entity: 'IBC', record: 'S-i2', state: 'at customer', place: 'Agro SA', transition: 'Fill' }, 'containers.1.ibc',
    ]);
    expect(e.message).toBe('IBC S-i2 is at customer at Agro SA: Fill cannot use it');
    expect(records[0].status).toBe('in_stock_empty');
  });

  it('refuse a record not where the operation says (match), naming the deposit it is at', () => {
    const e = refusal(() => confirm([ibc('i1'), ibc('i2'), ibc('i3', { deposit_id: 'd2' })], filling(), ctxWith([ibc('i1'), ibc('i2'), ibc('i3', { deposit_id: 'd2' })], { lang: 'fr' })));
    expect([e.code, e.params, e.field]).toEqual([
      'RECORD_NOT_AVAILABLE', { entity: 'IBC (fr)', record: 'S-i3', state: 'in stock empty (fr)', place: 'Rosario', transition: 'Fill (fr)' }, 'containers.2.ibc',
    ]);
  });

  it('refuse a record absent from the lookup, and one listed twice (its second turn finds it filled)', () => {
    const missing = refusal(() => confirm([ibc('i1'), ibc('i3')]));
    expect([missing.code, missing.params, missing.field]).toEqual(['RECORD_NOT_FOUND', { entity: 'IBC', id: 'i2' }, 'containers.1.ibc']);
    const twice = filling({ containers: [{ ibc: 'i1', quantity: 10, topSeal: 'T1' }, { ibc: 'i1', quantity: 10, topSeal: 'T1' }] });
    const e = refusal(() => confirm([ibc('i1')], twice));
    expect([e.code, e.params.state, e.field]).toEqual(['RECORD_NOT_AVAILABLE', 'prepared', 'containers.1.ibc']);
  });

  it("a referenced record's own refusal points at the parent's line field its input came from", () => {
    const late = refusal(() => confirm([ibc('i1'), ibc('i2', { nextInspectionDate: '2026-01-01' }), ibc('i3')]));
    expect([late.code, late.params.reason, late.field]).toEqual(['TRANSITION_REFUSED', 'IBC S-i2 is past its periodic inspection date, 2026-01-01', 'containers.1.ibc']);
    const noSeal = filling({ containers: [{ ibc: 'i1', quantity: 10 }] });
    const e = refusal(() => confirm([ibc('i1')], noSeal));
    expect([e.code, e.params, e.field]).toEqual(['TRANSITION_FIELD_REQUIRED', { label: 'Top seal', transition: 'Fill' }, 'containers.0.topSeal']);
  });

  it('read the transition from the line when the effect says $line.<field>', () => {
    const prepared = [ibc('i1', { status: 'prepared' }), ibc('i2', { status: 'prepared' })];
    const record = filling({ status: 'Prepared', containers: [{ ibc: 'i1', action: 'ship' }, { ibc: 'i2', action: 'mapNfc' }] });
    const e = refusal(() => planTransition(reg, reg.workflows.filling, record, 'dispatch', {}, ctxWith(prepared)));
    // mapNfc requires a tag the operation does not give: the line's own transition was taken.
    expect([e.code, e.params.transition]).toEqual(['TRANSITION_FIELD_REQUIRED', 'Map NFC tag']);
    const bad = filling({ status: 'Prepared', containers: [{ ibc: 'i1', action: 'fly' }] });
    expect(refusal(() => planTransition(reg, reg.workflows.filling, bad, 'dispatch', {}, ctxWith(prepared))).code).toBe('TRANSITION_NOT_ALLOWED');
    const ok = filling({ status: 'Prepared', containers: [{ ibc: 'i1', action: 'ship' }, { ibc: 'i2', action: 'ship' }] });
    const p = planTransition(reg, reg.workflows.filling, ok, 'dispatch', {}, ctxWith(prepared));
    expect(p.records.map((r) => [r.id, r.record.status, r.record.inTransitTo])).toEqual([['i1', 'in_transit', 'd2'], ['i2', 'in_transit', 'd2']]);
  });

  it(`follow referenced records ${MAX_RECORD_DEPTH} levels deep and refuse deeper, planning nothing`, () => {
    const node = (id: string, children: string[] = []) => ibc(id, { children: children.map((c) => ({ id: c })) });
    const touch = (nodes: Rec[]) => planTransition(reg, reg.workflows.node, nodes[0], 'touch', {}, ctxWith(nodes));
    const p = touch([node('n1', ['n2']), node('n2', ['n3']), node('n3')]);
    expect(p.records.map((r) => [r.id, r.record.numberOfUses])).toEqual([['n3', 1], ['n2', 1]]);
    const e = refusal(() => touch([node('n1', ['n2']), node('n2', ['n3']), node('n3', ['n4']), node('n4')]));
    expect([e.code, e.params.transition]).toEqual(['TRANSITION_REFUSED', 'Touch']);
    expect(String(e.params.reason)).toContain(`more than ${MAX_RECORD_DEPTH} operations deep`);
  });
});

describe('log rows', () => {
  it('one per transition, for the operation and each record it transitions, with since, operation and stable ids', () => {
    const records = [ibc('i1'), ibc('i2'), ibc('i3', { history: [{ transition: 'passQC', from: 'in_qc', to: 'in_stock_empty', by: 'u0', at: '2026-02-10T08:00:00.000Z' }] })];
    const record = filling({ createdAt: '2026-02-27T09:00:00.000Z' });
    const p = planTransition(reg, reg.workflows.filling, record, 'confirm', {}, ctxWith(records));
    const operation = { workflow: 'filling', id: 'f1', transition: 'confirm' };
    expect(p.logs.map((l) => l.entity)).toEqual(['ibc_event', 'ibc_event', 'ibc_event', 'filling_log']);
    expect(p.logs[0].doc).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      record: 'i1', transition: 'fill', from: 'in_stock_empty', to: 'prepared', at: now, by: 'u1', since: '2025-01-01T00:00:00.000Z', operation,
      // Resolved against the record after the transition: the fill count already counts this fill.
      serial: 'S-i1', deposit: 'd1', uses: 1,
    });
    expect(p.logs[2].doc).toMatchObject({ record: 'i3', since: '2026-02-10T08:00:00.000Z', operation });
    expect(p.logs[3].doc).toMatchObject({ record: 'f1', transition: 'confirm', from: 'Draft', to: 'Prepared', since: '2026-02-27T09:00:00.000Z', number: 'B-1' });
    expect(p.logs[3].doc).not.toHaveProperty('operation');
    const ids = p.logs.map((l) => l.doc.id);
    expect(new Set(ids).size).toBe(4);
    expect(planTransition(reg, reg.workflows.filling, record, 'confirm', {}, ctxWith(records)).logs.map((l) => l.doc.id)).toEqual(ids);
  });

  it('a transition of the record itself logs since its last history entry, without an operation', () => {
    const filled = planIbc(ibc('i1'), 'fill', fillInput).record;
    const p = planIbc(filled, 'ship', { fields: { inTransitTo: 'd2' } }, ctxWith([], { now: '2026-03-05T10:00:00.000-03:00' }));
    expect(p.logs).toEqual([{ entity: 'ibc_event', doc: expect.objectContaining({ record: 'i1', transition: 'ship', from: 'prepared', to: 'in_transit', since: now, at: '2026-03-05T10:00:00.000-03:00', uses: 1 }) }]);
    expect(p.logs[0].doc).not.toHaveProperty('operation');
  });
});

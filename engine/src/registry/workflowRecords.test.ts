import { describe, expect, it } from 'vitest';
import { workflowSources } from '../testing/workflowFixtures';
import { loadRegistry } from './load';
import { formatProblem } from './problems';

/**
 * Issue 16's vocabulary: a workflow over a master entity with a log, an operation taking a
 * transition on every record it lists, own-field effects, refuse rules, registered keys and
 * backend operation names. A small tank fleet stands in for the IBCs.
 */
type Json = Record<string, any>;
const t = (en: string) => ({ en, es: `${en} (es)`, fr: `${en} (fr)` });
const f = (id: string, type: string, more: Json = {}) => ({ id, label: t(id), type, ...more });
const history = f('history', 'object', { multiple: true, fields: ['transition', 'from', 'to', 'by', 'at', 'comment'].map((id) => f(id, 'string')) });

const TANK_ENTITY = {
  name: 'tank', kind: 'master', label: t('Tank'), pluralLabel: t('Tanks'), titleField: 'serial',
  serverFields: ['status', 'uses', 'content', 'history', 'nextCheck'],
  fields: [
    f('serial', 'string', { unique: true }), f('madeOn', 'date'), f('deposit', 'reference', { ref: 'company_division' }), f('note', 'string'),
    f('status', 'string', { options: [{ value: 'idle', label: t('Idle') }, { value: 'full', label: t('Full') }] }),
    f('uses', 'integer'), f('nextCheck', 'date'),
    f('content', 'object', { fields: [f('material', 'reference', { ref: 'material' }), f('batch', 'string'), f('quantity', 'number')] }),
    history,
  ],
};
const TANK_EVENT_ENTITY = {
  name: 'tank_event', kind: 'event', label: t('Tank event'), pluralLabel: t('Tank events'),
  fields: [
    f('record', 'reference', { ref: 'tank' }), f('transition', 'string'), f('from', 'string'), f('to', 'string'), f('at', 'datetime'),
    f('since', 'datetime'), f('by', 'string'), f('operation', 'object', { fields: [f('workflow', 'string'), f('id', 'string'), f('transition', 'string')] }),
    f('serial', 'string'), f('deposit', 'reference', { ref: 'company_division' }),
  ],
};
const TANK_WORKFLOW = {
  name: 'tank', label: t('Tank'), entity: 'tank', access: 'Deliveries', stateField: 'status', initial: 'idle',
  states: [{ id: 'idle', label: t('Idle'), color: '#999' }, { id: 'full', label: t('Full'), color: '#36c' }],
  lines: { field: '.', material: 'content.material', batch: 'content.batch', quantity: 'content.quantity' },
  depositFields: ['deposit'], dateField: 'madeOn',
  operations: { read: ['getTank'] },
  log: { entity: 'tank_event', fields: { serial: '$record.serial', deposit: '$record.deposit' } },
  transitions: [
    {
      id: 'fill', label: t('Fill'), from: ['idle'], to: 'full', access: 'Deliveries', operations: ['fillTank'],
      input: ['content.material', 'content.batch', 'content.quantity', 'note'],
      refuse: [{ when: { nextCheck: { $lt: '$today' } }, message: { en: 'Tank {serial} is past its check, {nextCheck}.', es: 'Tanque {serial}: control vencido el {nextCheck}.', fr: 'Citerne {serial} : contrôle dépassé le {nextCheck}.' } }],
      effects: [
        { type: 'setFields', inc: { uses: 1 } },
        { type: 'emitEvent', event: { type: 'ObjectEvent', bizStep: 'packing', epcs: ['$record.serial'], readPoint: '$record.deposit' } },
      ],
    },
    {
      id: 'empty', label: t('Empty'), from: ['full'], to: 'idle', access: 'Deliveries',
      effects: [
        { type: 'removeStock', deposit: '$record.deposit', when: { 'content.quantity': { $gt: 0 } } },
        { type: 'setFields', set: { content: null } },
      ],
    },
    { id: 'move', label: t('Move'), from: ['idle', 'full'], access: 'Deliveries', input: ['deposit'], effects: [{ type: 'moveStock', from: '$before.deposit', to: '$record.deposit' }] },
  ],
};
const FILLING_ENTITY = {
  name: 'filling', kind: 'operation', label: t('Filling'), pluralLabel: t('Fillings'), serverFields: ['status', 'history'],
  fields: [
    f('fillingId', 'string'), f('filledOn', 'date'), f('deposit', 'reference', { ref: 'company_division' }),
    f('material', 'reference', { ref: 'material' }), f('batch', 'string'), f('tankSerial', 'string'),
    f('tanks', 'object', { multiple: true, fields: [
      f('tank', 'reference', { ref: 'tank' }), f('quantity', 'number'),
      f('action', 'string', { options: [{ value: 'fill', label: t('Fill') }, { value: 'empty', label: t('Empty') }] }),
    ] }),
    f('status', 'string', { options: ['Draft', 'Done'].map((value) => ({ value, label: t(value) })) }),
    history,
  ],
};
const FILLING_WORKFLOW = {
  name: 'filling', label: t('Filling'), entity: 'filling', access: 'Deliveries', stateField: 'status', initial: 'Draft',
  states: [{ id: 'Draft', label: t('Draft'), color: '#999' }, { id: 'Done', label: t('Done'), color: '#3a3', final: true }],
  lines: { field: 'tanks', material: '$record.material', batch: '$record.batch', quantity: 'quantity' },
  depositFields: ['deposit'], dateField: 'filledOn',
  operations: { read: ['fillings'], draft: ['saveFilling'] },
  registered: [{ field: 'tankSerial', entity: 'tank', key: 'serial' }],
  transitions: [
    {
      id: 'confirm', label: t('Confirm'), from: ['Draft'], to: 'Done', access: 'Deliveries', operations: ['confirmFilling'],
      effects: [
        { type: 'removeStock', deposit: '$record.deposit' },
        {
          type: 'transitionRecords', workflow: 'tank', transition: 'fill', records: { field: 'tanks', id: 'tank' },
          match: { deposit: '$record.deposit' }, fields: { 'content.quantity': '$line.quantity', 'content.batch': '$record.batch' },
        },
      ],
    },
    {
      id: 'apply', label: t('Apply'), from: ['Draft'], to: 'Done', access: 'Deliveries',
      effects: [{ type: 'transitionRecords', workflow: 'tank', transition: '$line.action', records: { field: 'tanks', id: 'tank' } }],
    },
  ],
};

const FILES = {
  'schemas/entities/tank.json': TANK_ENTITY,
  'schemas/entities/tank_event.json': TANK_EVENT_ENTITY,
  'schemas/entities/filling.json': FILLING_ENTITY,
  'schemas/workflows/tank.json': TANK_WORKFLOW,
  'schemas/workflows/filling.json': FILLING_WORKFLOW,
};
type File = keyof typeof FILES;

/** The problems once `change` has broken the fleet's definitions (each file a copy, reached into freely). */
function broken(change: (files: Record<File, Json>) => void, over: Record<string, unknown> = {}): string[] {
  const files = structuredClone(FILES) as Record<File, Json>;
  change(files);
  return loadRegistry(workflowSources({ ...files, ...over })).problems.map(formatProblem);
}
const TANK = 'schemas/workflows/tank.json';
const FILLING = 'schemas/workflows/filling.json';
const at = (file: string, pointer: string, message: string) => `${file}:${pointer}: ${message}`;
const source = (path: string) => JSON.parse(workflowSources().find((s) => s.path === path)!.text);

describe('issue 16 vocabulary: what is valid', () => {
  it('loads a master entity with a life cycle and an operation taking transitions over its records', () => {
    expect(broken(() => {})).toEqual([]);
  });

  it('a transition without a target state keeps the state; an effect needs set or inc; transitionRecords names its records', () => {
    expect(broken((x) => { x[TANK].transitions[1].effects[1] = { type: 'setFields' }; })).toEqual([
      at(TANK, '/transitions/1/effects/1', 'missing required property "set"'),
      at(TANK, '/transitions/1/effects/1', 'missing required property "inc"'),
      at(TANK, '/transitions/1/effects/1', 'must match a schema in anyOf'),
    ]);
    expect(broken((x) => { delete x[FILLING].transitions[0].effects[1].records; })).toEqual([
      at(FILLING, '/transitions/0/effects/1', 'missing required property "records"'),
    ]);
    expect(broken((x) => { x[TANK].transitions[0].refuse[0].message = t('x'); delete x[TANK].transitions[0].refuse[0].message.fr; })).toEqual([
      at(TANK, '/transitions/0/refuse/0/message', 'missing fr (every text needs en, es, fr)'),
    ]);
  });
});

describe('issue 16 vocabulary: cross-references, each with file and JSON pointer', () => {
  it('a workflow governs an operation, or a master entity whose state field only the server writes', () => {
    expect(broken((x) => { x['schemas/entities/tank.json'].serverFields = ['uses', 'content', 'history', 'nextCheck']; })).toEqual([
      at(TANK, '/stateField', 'field "status" of master entity "tank" must be one of its serverFields, so only transitions change it'),
    ]);
    expect(broken((x) => { x['schemas/entities/tank_event.json'].fields.push(f('status', 'string'), history); x[TANK].entity = 'tank_event'; x[TANK].depositFields = []; x[TANK].dateField = 'at'; x[TANK].transitions = []; delete x[TANK].lines; delete x[FILLING].transitions; x[FILLING].transitions = []; })).toEqual([
      at(TANK, '/entity', 'entity "tank_event" is of kind event, not operation or master'),
    ]);
  });

  it('transitionRecords: the workflow, its transition, the list field and its reference, match and input fields', () => {
    expect(broken((x) => { x[FILLING].transitions[0].effects[1].workflow = 'tanks'; })).toEqual([
      at(FILLING, '/transitions/0/effects/1/workflow', 'workflow "tanks" does not exist'),
    ]);
    expect(broken((x) => {
      const e = x[FILLING].transitions[0].effects[1];
      e.transition = 'refill';
      e.match = { depot: '$record.deposit', serial: '$line.quantity' };
    })).toEqual([
      at(FILLING, '/transitions/0/effects/1/transition', '"refill" is not a transition of tank'),
      at(FILLING, '/transitions/0/effects/1/match/depot', 'field "depot" does not exist in tank'),
    ]);
    expect(broken((x) => { x[FILLING].transitions[0].effects[1].fields = { 'content.quantity': '$line.qty', deposit: '$record.deposit' }; })).toEqual([
      at(FILLING, '/transitions/0/effects/1/fields/content.quantity', 'field "qty" does not exist in the lines'),
      at(FILLING, '/transitions/0/effects/1/fields/deposit', '"deposit" is not an input of tank\'s transition fill'),
    ]);
    expect(broken((x) => { x[FILLING].transitions[0].effects[1].records = { field: 'batch', id: 'tank' }; })).toEqual([
      at(FILLING, '/transitions/0/effects/1/records/field', 'field "batch" is not a list of objects'),
      at(FILLING, '/transitions/0/effects/1/fields/content.quantity', '$line.quantity is used where no lines are walked'),
    ]);
    // The title value a line may give instead of the id must be a line field.
    expect(broken((x) => { x[FILLING].transitions[0].effects[1].records.key = 'serial'; })).toEqual([
      at(FILLING, '/transitions/0/effects/1/records/key', 'field "serial" does not exist in the lines tanks'),
    ]);
    expect(broken((x) => { x[FILLING].transitions[0].effects[1].records.key = 'quantity'; })).toEqual([]);
    expect(broken((x) => { x[FILLING].transitions[0].effects[1].records = { field: 'tanks', id: 'quantity' }; x[FILLING].transitions[1].effects[0].records.id = 'tnk'; })).toEqual([
      at(FILLING, '/transitions/0/effects/1/records/id', 'field "quantity" must be a reference to tank'),
      at(FILLING, '/transitions/1/effects/0/records/id', 'field "tnk" does not exist in the lines tanks'),
    ]);
  });

  it('a transition chosen per line is a line field whose options are transition ids', () => {
    expect(broken((x) => { x['schemas/entities/filling.json'].fields[6].fields[2].options.push({ value: 'drain', label: t('Drain') }); })).toEqual([
      at(FILLING, '/transitions/1/effects/0/transition', 'option "drain" of action is not a transition of tank'),
    ]);
    expect(broken((x) => { delete x['schemas/entities/filling.json'].fields[6].fields[2].options; })).toEqual([
      at(FILLING, '/transitions/1/effects/0/transition', 'field "action" has no options: they must be transition ids of tank'),
    ]);
    expect(broken((x) => { x[FILLING].transitions[1].effects[0].transition = '$line.kind'; })).toEqual([
      at(FILLING, '/transitions/1/effects/0/transition', 'field "kind" does not exist in the lines'),
    ]);
  });

  it('the log entity exists with the row fields, and the logged fields are its own', () => {
    expect(broken((x) => { x[TANK].log.entity = 'tank_log'; })).toEqual([at(TANK, '/log/entity', 'entity "tank_log" does not exist')]);
    expect(broken((x) => {
      x['schemas/entities/tank_event.json'].fields = x['schemas/entities/tank_event.json'].fields.filter((g: Json) => g.id !== 'since' && g.id !== 'operation');
      x[TANK].log.fields = { serial: '$record.serialNo', customer: '$record.deposit' };
    })).toEqual([
      at(TANK, '/log/entity', 'entity "tank_event" has no "since", "operation" field for the log rows'),
      at(TANK, '/log/fields/serial', 'field "serialNo" does not exist in tank'),
      at(TANK, '/log/fields/customer', 'field "customer" does not exist in tank_event'),
    ]);
  });

  it('a registered field names an entity and one of its fields', () => {
    expect(broken((x) => { x[FILLING].registered = [{ field: 'truck', entity: 'tank', key: 'serial' }, { field: 'tankSerial', entity: 'tanks', key: 'serial' }, { field: 'tankSerial', entity: 'tank', key: 'number' }]; })).toEqual([
      at(FILLING, '/registered/0/field', 'field "truck" does not exist in filling'),
      at(FILLING, '/registered/1/entity', 'entity "tanks" does not exist'),
      at(FILLING, '/registered/2/key', 'field "number" does not exist in tank'),
    ]);
  });

  it('setFields sets fields of the record and adds to numbers only; effect conditions are queries mingo runs', () => {
    expect(broken((x) => {
      x[TANK].transitions[0].effects[0] = { type: 'setFields', set: { 'content.lot': '$record.note', note: '$before.notes' }, inc: { serial: 1 } };
      x[TANK].transitions[1].effects[0].when = { 'content.quantity': { $greater: 0 } };
    })).toEqual([
      at(TANK, '/transitions/0/effects/0/set/content.lot', 'field "content.lot" does not exist in tank'),
      at(TANK, '/transitions/0/effects/0/set/note', 'field "notes" does not exist in tank'),
      at(TANK, '/transitions/0/effects/0/inc/serial', 'field "serial" is not a number'),
      at(TANK, '/transitions/1/effects/0/when', 'not a valid query: unknown query operator $greater'),
    ]);
  });

  it('refuse rules are queries, and their messages name fields of the record, the same in every language', () => {
    expect(broken((x) => {
      const rule = x[TANK].transitions[0].refuse[0];
      rule.when = { nextCheck: { $before: '$today' } };
      rule.message = { en: 'Tank {serial} is past {nextCheckDate}.', es: 'Tanque {serial}: vencido el {nextCheckDate}.', fr: 'Citerne {serial} : contrôle dépassé.' };
    })).toEqual([
      at(TANK, '/transitions/0/refuse/0/when', 'not a valid query: unknown query operator $before'),
      at(TANK, '/transitions/0/refuse/0/message/en', 'field "nextCheckDate" does not exist in tank'),
      at(TANK, '/transitions/0/refuse/0/message/fr', 'placeholders differ from the en message\'s {serial}, {nextCheckDate}'),
    ]);
  });

  it('lines may take one value of the record for every line; $before and epcs name fields of the record', () => {
    expect(broken((x) => {
      x[FILLING].lines.material = '$record.materal';
      x[TANK].transitions[2].effects[0].from = '$before.depot';
      x[TANK].transitions[0].effects[1].event.epcs = ['$record.serialNumber'];
    })).toEqual([
      at(FILLING, '/lines/material', 'field "materal" does not exist in filling'),
      at(TANK, '/transitions/0/effects/1/event/epcs/0', 'field "serialNumber" does not exist in tank'),
      at(TANK, '/transitions/2/effects/0/from', 'field "depot" does not exist in tank'),
    ]);
    expect(broken((x) => { x[TANK].transitions[2].effects[0].from = '$before.note'; })).toEqual([
      at(TANK, '/transitions/2/effects/0/from', 'field "note" must be a reference to company_division'),
    ]);
  });

  it('a key grants backend operations the deployment knows or a workflow serves', () => {
    const access = source('schemas/access.json');
    access.keys.push({ key: 'tank.mobile', label: t('Tank mobile'), operations: ['getTank', 'fillTank', 'confirmFilling', 'saveFilling', 'getTanks', 'fetchReturns'] });
    expect(broken(() => {}, { 'schemas/access.json': access })).toEqual([
      `schemas/access.json:/keys/${access.keys.length - 1}/operations/4: operation "getTanks" is neither in operations nor served by a workflow (did you mean "getTank"?)`,
    ]);
  });

  it('a feature maps the records of a workflow whose entity has a location', () => {
    const features = source('schemas/features.json');
    features.features[5].operation = { workflow: 'tank', create: false, map: true, measures: 'ibc' };
    expect(broken(() => {}, { 'schemas/features.json': features })).toEqual([
      'schemas/features.json:/features/5/operation/map: entity "tank" has no location.lat and location.lng to map',
    ]);
    features.features[5].operation.measures = 'tanks';
    expect(broken((x) => { x['schemas/entities/tank.json'].fields.push(f('location', 'object', { fields: [f('lat', 'number'), f('lng', 'number')] })); }, { 'schemas/features.json': features })).toEqual([
      'schemas/features.json:/features/5/operation/measures: must be one of: "ibc"',
    ]);
  });

  it('the deployment settles the IBC fleet rules, in whole numbers from 1', () => {
    const deployment = source('schemas/deployment.json');
    deployment.settings.ibc = { inspectionIntervalMonths: 0, lifetimeYears: 5.5, alertDaysBefore: 30 };
    expect(broken(() => {}, { 'schemas/deployment.json': deployment })).toEqual([
      'schemas/deployment.json:/settings/ibc: missing required property "lossAfterDays"',
      'schemas/deployment.json:/settings/ibc/inspectionIntervalMonths: must be >= 1',
      'schemas/deployment.json:/settings/ibc/lifetimeYears: must be integer',
    ]);
  });
});

describe('issue 16 vocabulary: defaults applied once, when loaded', () => {
  it('lists and maps are present; an event of serialised objects walks no lines; keys grant no operation unless they say', () => {
    const { registry } = loadRegistry(workflowSources(FILES));
    const tank = registry!.workflows.tank;
    const filling = registry!.workflows.filling;
    expect([tank.registered, tank.operations, filling.operations]).toEqual([[], { read: ['getTank'], draft: [] }, { read: ['fillings'], draft: ['saveFilling'] }]);
    expect(tank.transitions.map((x) => [x.operations, x.refuse!.length])).toEqual([[['fillTank'], 1], [[], 0], [[], 0]]);
    expect(tank.transitions[0].effects).toEqual([
      { type: 'setFields', set: {}, inc: { uses: 1 } },
      { type: 'emitEvent', event: { type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'packing', epcs: ['$record.serial'], readPoint: '$record.deposit' } },
    ]);
    expect(tank.transitions[1].effects![0]).toEqual({ type: 'removeStock', deposit: '$record.deposit', when: { 'content.quantity': { $gt: 0 } }, lines: TANK_WORKFLOW.lines });
    expect(filling.transitions[1].effects![0]).toMatchObject({ fields: {}, match: {} });
    expect(filling.transitions[0].effects![0]).toMatchObject({ lines: FILLING_WORKFLOW.lines });
    expect(tank.transitions[2].to).toBeUndefined();
    expect(registry!.access.keys.find((k) => k.key === 'Deliveries')!.operations).toEqual([]);
    expect(registry!.access.keys.find((k) => k.key === 'ibc.mobile.returns')!.operations).toEqual(['fetchReturns', 'getIBC']);
  });
});

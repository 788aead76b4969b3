import { describe, expect, it } from 'vitest';
import { BATCH_WORKFLOW, SHIPMENT_WORKFLOW, workflowRegistry, workflowSources } from '../testing/workflowFixtures';
import { loadRegistry } from './load';
import { formatProblem } from './problems';

/** A definition broken on purpose: reached into freely, as JSON. */
type Json = Record<string, any>;
const FILE = 'schemas/workflows/shipment.json';

/** The problems of the shipment workflow once `change` has broken it. */
function broken(change: (wf: Json) => void, over: Record<string, unknown> = {}): string[] {
  const wf = structuredClone(SHIPMENT_WORKFLOW) as Json;
  change(wf);
  return loadRegistry(workflowSources({ [FILE]: wf, ...over })).problems.map(formatProblem);
}
const at = (pointer: string, message: string) => `${FILE}:${pointer}: ${message}`;

describe('workflow definitions: the meta-schema', () => {
  it('wants every label in en, es and fr, and a colour per state', () => {
    expect(broken((wf) => { delete wf.states[1].label.fr; delete wf.states[2].color; })).toEqual([
      at('/states/1/label', 'missing fr (every text needs en, es, fr)'),
      at('/states/2', 'missing required property "color"'),
    ]);
  });

  it('knows the effect vocabulary and what each effect needs, by its type', () => {
    expect(broken((wf) => { wf.transitions[0].effects[0] = { type: 'teleportStock', deposit: '$record.deposit' }; })).toEqual([
      at('/transitions/0/effects/0', 'value of tag "type" must be in oneOf'),
    ]);
    expect(broken((wf) => { wf.transitions[0].effects[0] = { type: 'removeStock', depot: '$record.deposit' }; })).toEqual([
      at('/transitions/0/effects/0', 'missing required property "deposit"'),
      at('/transitions/0/effects/0/depot', 'unknown property "depot"'),
    ]);
  });

  it('wants a guard to say why it refuses, and value references of the known roots', () => {
    expect(broken((wf) => { delete wf.transitions[3].guardMessage; })).toEqual([
      at('/transitions/3', 'must have property guardMessage when property guard is present'),
    ]);
    expect(broken((wf) => { wf.transitions[0].effects[0].deposit = '$sender.deposit'; })[0]).toMatch(/^schemas\/workflows\/shipment\.json:\/transitions\/0\/effects\/0\/deposit: /);
  });
});

describe('workflow definitions: cross-references, each with file and JSON pointer', () => {
  it('the entity exists and is an operation (or a master whose state only the server writes), with the state and history fields', () => {
    expect(broken((wf) => { wf.entity = 'shipments'; })).toEqual([at('/entity', 'entity "shipments" does not exist')]);
    expect(broken((wf) => { wf.entity = 'company'; wf.stateField = 'state'; wf.depositFields = []; wf.dateField = 'email'; wf.transitions = []; delete wf.lines; delete wf.declarable; })).toEqual([
      at('/stateField', 'field "state" of master entity "company" must be one of its serverFields, so only transitions change it'),
      at('/entity', 'entity "company" has no "history" field for the transitions\' history'),
      ...['Draft', 'In-Progress', 'Accepted', 'Partial Reject', 'Total Reject', 'Rejection Accepted', 'Cancelled'].map((s, i) => at(`/states/${i}/id`, `state "${s}" is not an option of company.state`)),
    ]);
  });

  it('states are declared, once, and are options of the state field', () => {
    expect(broken((wf) => { wf.initial = 'draft'; wf.transitions[0].from = ['Draft', 'Dratf']; wf.transitions[0].to = 'Sent'; wf.states.push({ ...wf.states[0] }); })).toEqual([
      at('/states/7/id', 'state "Draft" is declared twice'),
      at('/initial', 'state "draft" is not declared'),
      at('/transitions/0/from/1', 'state "Dratf" is not declared'),
      at('/transitions/0/to', 'state "Sent" is not declared'),
    ]);
    expect(broken((wf) => { wf.states.push({ id: 'Lost', label: wf.states[0].label, color: 'red' }); })).toEqual([
      at('/states/7/id', 'state "Lost" is not an option of shipment.status'),
    ]);
  });

  it('access keys, required, input and date fields, transition ids', () => {
    expect(broken((wf) => {
      wf.access = 'Delivery';
      wf.dateField = 'sentOn';
      wf.transitions[0].access = 'Shipping';
      wf.transitions[0].requires = ['shipmentId'];
      wf.transitions[3].input = ['lines.refused'];
      wf.transitions[1].id = 'confirm';
    })).toEqual([
      at('/access', 'access key "Delivery" is not declared in schemas/access.json'),
      at('/dateField', 'field "sentOn" does not exist in shipment'),
      at('/transitions/0/access', 'access key "Shipping" is not declared in schemas/access.json'),
      at('/transitions/0/requires/0', 'field "shipmentId" does not exist in shipment'),
      at('/transitions/1/id', 'transition "confirm" is declared twice'),
      at('/transitions/3/input/0', 'field "lines.refused" does not exist in shipment'),
    ]);
  });

  it('deposits are references to company_division wherever they are named', () => {
    expect(broken((wf) => {
      wf.depositFields = ['deposit', 'shipmentID'];
      wf.transitions[0].at = 'sendDate';
      wf.transitions[0].effects[0].deposit = '$record.depot';
      wf.transitions[2].effects[0].deposit = '$record.shipmentID';
      wf.transitions[0].effects[1].event.readPoint = '$record.sendDate';
    })).toEqual([
      at('/depositFields/1', 'field "shipmentID" must be a reference to company_division'),
      at('/transitions/0/at', 'field "sendDate" must be a reference to company_division'),
      at('/transitions/0/effects/0/deposit', 'field "depot" does not exist in shipment'),
      at('/transitions/0/effects/1/event/readPoint', 'field "sendDate" must be a reference to company_division'),
      at('/transitions/2/effects/0/deposit', 'field "shipmentID" must be a reference to company_division'),
    ]);
  });

  it('lines and their fields exist, and effects that walk lines have them', () => {
    expect(broken((wf) => { wf.lines.field = 'products'; })).toContain(at('/lines/field', 'field "products" does not exist in shipment'));
    expect(broken((wf) => { wf.lines.quantity = 'qty'; wf.lines.field = 'lines'; })).toEqual([at('/lines/quantity', 'field "qty" does not exist in the lines lines')]);
    expect(broken((wf) => { wf.lines.field = 'sendDate'; })[0]).toBe(at('/lines/field', 'field "sendDate" is not a list of objects'));
    expect(broken((wf) => { delete wf.lines; wf.transitions = [wf.transitions[0]]; })).toEqual([
      at('/transitions/0/effects/0', 'removeStock walks lines: name them here or in the workflow\'s "lines"'),
      at('/transitions/0/effects/1/event', 'an ObjectEvent walks lines: name them here or in the workflow\'s "lines"'),
    ]);
    expect(broken((wf) => { wf.transitions[2].effects[0].quantity = '$line.acepted'; wf.transitions[4].setLines.set = { refused: 1 }; wf.transitions[5].effects[2].id = '$line.deposit'; })).toEqual([
      at('/transitions/2/effects/0/quantity', 'field "acepted" does not exist in the lines'),
      at('/transitions/4/setLines/set/refused', 'field "refused" does not exist in the lines'),
      at('/transitions/5/effects/2/id', '$line.deposit is used where no lines are walked'),
    ]);
  });

  it('a declarable workflow has its legal deadline in the deployment', () => {
    const deployment = JSON.parse(workflowSources().find((s) => s.path === 'schemas/deployment.json')!.text);
    deployment.settings.sync.deadlineMinutes = { other: 15 };
    expect(broken(() => {}, { 'schemas/deployment.json': deployment })).toEqual([
      'schemas/deployment.json:/settings/sync/deadlineMinutes: declarable workflow "shipment" has no deadline',
    ]);
  });

  it('event terms are CBV, a guard is a query mingo runs, sync needs a declared entity, updates name real fields', () => {
    expect(broken((wf) => {
      wf.transitions[0].effects[1].event.bizStep = 'shiping';
      wf.transitions[0].effects[1].event.disposition = 'urn:epcglobal:cbv:disp:in_transito';
      wf.transitions[0].effects[1].event.bizTransaction.type = 'despatch';
      wf.transitions[0].effects[1].event.source[0].type = 'owner';
      wf.transitions[3].guard = { lines: { $elemMatches: { rejected: { $gt: 0 } } } };
      wf.transitions[5].effects[2].set = { lastReturn: '$now' };
    }, { 'schemas/entities/shipment.json': { ...JSON.parse(workflowSources().find((s) => s.path === 'schemas/entities/shipment.json')!.text), sync: false } })).toEqual([
      at('/declarable', 'entity "shipment" is not declared to the authority ("sync": true)'),
      at('/transitions/0/effects/1/event/bizStep', '"shiping" is not a CBV bizStep'),
      at('/transitions/0/effects/1/event/disposition', '"urn:epcglobal:cbv:disp:in_transito" is not a CBV disposition'),
      at('/transitions/0/effects/1/event/bizTransaction/type', '"despatch" is not a CBV business transaction type'),
      at('/transitions/0/effects/1/event/source/0/type', '"owner" is not a CBV source/destination type'),
      at('/transitions/0/effects/2/type', 'entity "shipment" is not declared to the authority ("sync": true)'),
      at('/transitions/3/guard', 'not a valid query: unknown query operator $elemMatches'),
      at('/transitions/5/effects/2/set/lastReturn', 'field "lastReturn" does not exist in company_division'),
    ]);
  });

  it('a derivation sets a server field of the entity, to one of its options, on queries mingo runs', () => {
    const entity = JSON.parse(workflowSources().find((s) => s.path === 'schemas/entities/shipment.json')!.text);
    const derive = [
      { field: 'status', cases: [{ when: { receiverDeposit: { $exists: true } }, value: 'Shipped' }, { when: { sendDate: { $after: 1 } }, value: 'Draft' }], otherwise: 'Lost' },
      { field: 'shipmentId', cases: [{ when: {}, value: 'x' }], otherwise: null },
    ];
    expect(broken((wf) => { wf.derive = derive; })).toEqual([
      at('/derive/0/field', 'field "status" is derived: list it in shipment\'s serverFields, so no client writes it'),
      at('/derive/0/cases/0/value', '"Shipped" is not an option of shipment.status'),
      at('/derive/0/otherwise', '"Lost" is not an option of shipment.status'),
      at('/derive/0/cases/1/when', 'not a valid query: unknown query operator $after'),
      at('/derive/1/field', 'field "shipmentId" does not exist in shipment'),
    ]);
    expect(broken((wf) => { wf.derive = [{ field: 'status', cases: [], otherwise: { x: 1 } }]; })).toEqual([
      at('/derive/0/cases', 'must NOT have fewer than 1 items'),
      at('/derive/0/otherwise', 'must be string,number,boolean,null'),
    ]);
    expect(broken((wf) => { wf.derive = [{ field: 'status', cases: [{ when: { receiverDeposit: { $exists: true } }, value: 'In-Progress' }], otherwise: 'Draft' }]; },
      { 'schemas/entities/shipment.json': { ...entity, serverFields: ['status', 'history'] } })).toEqual([]);
  });

  it('a feature drawn from a workflow names a workflow, its states and one of its deposit fields', () => {
    const features = JSON.parse(workflowSources().find((s) => s.path === 'schemas/features.json')!.text);
    features.features[5].operation = { workflow: 'shipments' };
    features.features[6].operation = { workflow: 'shipment', states: ['In-Progress', 'Pending'], depositField: 'sendDate' };
    expect(broken(() => {}, { 'schemas/features.json': features })).toEqual([
      'schemas/features.json:/features/5/operation/workflow: workflow "shipments" does not exist (did you mean "shipment"?)',
      'schemas/features.json:/features/6/operation/states/1: state "Pending" is not a state of shipment',
      'schemas/features.json:/features/6/operation/depositField: "sendDate" is not one of shipment\'s depositFields',
    ]);
  });
});

describe('workflow definitions: defaults applied once, when loaded', () => {
  it('a comment is optional, lists are present, effects and ObjectEvents walk the workflow lines, alerts inform', () => {
    const reg = workflowRegistry();
    const [confirm, cancel, , partial] = reg.workflows.shipment.transitions;
    expect([confirm.comment, cancel.comment, cancel.requires, cancel.input, cancel.effects]).toEqual(['optional', 'none', [], [], []]);
    expect(partial.input).toEqual(['lines.rejected', 'receivedDate']);
    expect(confirm.effects![0]).toMatchObject({ type: 'removeStock', lines: SHIPMENT_WORKFLOW.lines });
    expect(confirm.effects![1]).toMatchObject({ event: { action: 'OBSERVE', lines: SHIPMENT_WORKFLOW.lines } });
    expect(reg.workflows.shipment.transitions[2].setLines!.lines).toEqual(SHIPMENT_WORKFLOW.lines);
    const wf = structuredClone(SHIPMENT_WORKFLOW) as Json;
    wf.transitions[4].effects[1] = { type: 'raiseAlert', title: wf.label, description: wf.label };
    const { registry } = loadRegistry(workflowSources({ [FILE]: wf }));
    expect(registry!.workflows.shipment.transitions[4].effects![1]).toMatchObject({ severity: 'info' });
    expect(reg.workflows.batch_declaration.transitions[0].effects![2]).toEqual(BATCH_WORKFLOW.transitions[0].effects[2]);
  });

  it('an operation entity is not importable by default, and a workflow feature offers creation unless it says not', () => {
    const features = JSON.parse(workflowSources().find((s) => s.path === 'schemas/features.json')!.text);
    features.features[5].operation = { workflow: 'shipment' };
    features.features[6].operation = { workflow: 'shipment', create: false, states: ['In-Progress'] };
    const { registry } = loadRegistry(workflowSources({ 'schemas/features.json': features }));
    expect(registry!.entities.shipment.importable).toBe(false);
    expect(registry!.features.features.slice(5, 7).map((f) => f.operation!.create)).toEqual([true, false]);
  });
});

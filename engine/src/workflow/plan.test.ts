import { describe, expect, it } from 'vitest';
import { workflowRegistry } from '../testing/workflowFixtures';
import { availableTransitions, planTransition, WorkflowError, type PlanInput } from './plan';

const reg = workflowRegistry();
const wf = reg.workflows.shipment;
const ctx = { userId: 'u1', now: '2026-03-01T10:00:00.000-03:00' };

const draft = () => ({
  id: 's1', shipmentID: 'R-0001', deposit: 'd1', receiverDeposit: 'd2', status: 'Draft',
  lines: [
    { material: 'm1', batch: 'L1', amount: 10, uom: 'kg', expires: '2027-01-01' },
    { material: 'm2', batch: 'L2', amount: 4, uom: 'kg' },
  ],
});
const plan = (record: Record<string, unknown>, transition: string, input: PlanInput = {}) => planTransition(reg, wf, record, transition, input, ctx);
const refusal = (f: () => unknown): WorkflowError => {
  try { f(); } catch (e) { if (e instanceof WorkflowError) return e; throw e; }
  throw new Error('no WorkflowError');
};
const inProgress = () => plan(draft(), 'confirm').record;

describe('planning a transition', () => {
  it('confirm takes the stock out of the sender, sets the state, sync and history, and emits a shipping event', () => {
    const p = plan(draft(), 'confirm', { comment: ' loaded ' });
    expect(p.movements).toEqual([
      { material: 'm1', batch: 'L1', deposit: 'd1', quantity: -10, unit: 'kg' },
      { material: 'm2', batch: 'L2', deposit: 'd1', quantity: -4, unit: 'kg' },
    ]);
    expect(p.record.status).toBe('In-Progress');
    expect(p.record.sync).toEqual({ status: '' });
    expect(p.record.history).toEqual([{ transition: 'confirm', from: 'Draft', to: 'In-Progress', by: 'u1', at: ctx.now, comment: 'loaded' }]);
    expect(p.lots).toEqual([]);
    expect(p.events).toHaveLength(1);
    expect(p.events[0]).toMatchObject({ type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'shipping', disposition: 'in_transit', eventTimeZoneOffset: '-03:00' });
  });

  it('leaves the record it was given untouched', () => {
    const record = draft();
    plan(record, 'confirm');
    expect(record).toEqual(draft());
  });

  it('refuses a transition not allowed from the state, naming transition and state', () => {
    const e = refusal(() => plan(draft(), 'acceptAll'));
    expect([e.code, e.params]).toEqual(['TRANSITION_NOT_ALLOWED', { transition: 'Accept all', state: 'Draft' }]);
    expect(refusal(() => plan(draft(), 'fly')).params).toEqual({ transition: 'fly', state: 'Draft' });
  });

  it('refuses a required field left empty, and a required comment not given, in the asked language', () => {
    const e = refusal(() => plan({ ...draft(), shipmentID: ' ' }, 'confirm'));
    expect([e.code, e.params, e.field]).toEqual(['TRANSITION_FIELD_REQUIRED', { label: 'Remito', transition: 'Confirm' }, 'shipmentID']);
    const c = refusal(() => planTransition(reg, wf, inProgress(), 'totalReject', {}, { ...ctx, lang: 'es' }));
    expect([c.code, c.params, c.field]).toEqual(['TRANSITION_FIELD_REQUIRED', { label: 'Comentario', transition: 'Reject all (es)' }, 'comment']);
  });

  it('refuses a quantity of zero or less, naming the line field', () => {
    const r = draft();
    r.lines[1].amount = 0;
    const e = refusal(() => plan(r, 'confirm'));
    expect([e.code, e.params, e.field]).toEqual(['QUANTITY_NOT_POSITIVE', { label: 'Amount', value: 0 }, 'lines.1.amount']);
  });

  it('accepting all sets rejected 0, derives accepted, adds the stock at the receiver and creates the lots', () => {
    const p = plan(inProgress(), 'acceptAll');
    expect(p.record.lines).toMatchObject([{ rejected: 0, accepted: 10 }, { rejected: 0, accepted: 4 }]);
    expect(p.movements).toEqual([
      { material: 'm1', batch: 'L1', deposit: 'd2', quantity: 10, unit: 'kg' },
      { material: 'm2', batch: 'L2', deposit: 'd2', quantity: 4, unit: 'kg' },
    ]);
    expect(p.lots).toEqual([{ material: 'm1', number: 'L1', expirationDate: '2027-01-01' }, { material: 'm2', number: 'L2' }]);
    expect(p.events[0]).toMatchObject({ bizStep: 'receiving', quantityList: [{ quantity: 10, uom: 'KGM' }, { quantity: 4, uom: 'KGM' }] });
  });

  it('a partial reject takes only the rejected quantities from the input and adds what was accepted', () => {
    const input = { fields: { lines: [{ rejected: 2.5, amount: 999, material: 'x' }, {}], status: 'Accepted', shipmentID: 'forged' } };
    const p = plan(inProgress(), 'partialReject', input);
    expect(p.record.lines).toMatchObject([{ material: 'm1', amount: 10, rejected: 2.5, accepted: 7.5 }, { amount: 4, rejected: 0, accepted: 4 }]);
    expect(p.record).toMatchObject({ status: 'Partial Reject', shipmentID: 'R-0001' });
    expect(p.movements.map((m) => m.quantity)).toEqual([7.5, 4]);
    // Then the sender takes back what was rejected: only the line with a rejected quantity moves.
    const back = plan(p.record, 'acceptRejection');
    expect(back.movements).toEqual([{ material: 'm1', batch: 'L1', deposit: 'd1', quantity: 2.5, unit: 'kg' }]);
    expect(back.updates).toEqual([{ entity: 'company_division', id: 'd1', set: { last_return: ctx.now } }]);
    expect(back.events[0]).toMatchObject({ disposition: 'returned', quantityList: [{ quantity: 2.5 }] });
    expect((back.record.history as unknown[]).map((h) => (h as { transition: string }).transition)).toEqual(['confirm', 'partialReject', 'acceptRejection']);
  });

  it('refuses a rejected quantity outside 0..quantity, and a partial reject rejecting nothing (the guard)', () => {
    const over = refusal(() => plan(inProgress(), 'partialReject', { fields: { lines: [{ rejected: 11 }] } }));
    expect([over.code, over.params, over.field]).toEqual(['FORMAT_TOO_LARGE', { label: 'Rejected', value: 11, limit: 10 }, 'lines.0.rejected']);
    const under = refusal(() => plan(inProgress(), 'partialReject', { fields: { lines: [{ rejected: -1 }] } }));
    expect([under.code, under.field]).toEqual(['FORMAT_TOO_SMALL', 'lines.0.rejected']);
    const text = refusal(() => plan(inProgress(), 'partialReject', { fields: { lines: [{ rejected: 'two' }] } }));
    expect([text.code, text.field]).toEqual(['FORMAT_WRONG_TYPE', 'lines.0.rejected']);
    const date = refusal(() => plan(inProgress(), 'partialReject', { fields: { lines: [{ rejected: 1 }], receivedDate: 'yesterday' } }));
    expect([date.code, date.field, date.params.label]).toEqual(['FORMAT_PATTERN', 'receivedDate', 'Received on']);
    const none = refusal(() => plan(inProgress(), 'partialReject', { fields: { lines: [{ rejected: 0 }] } }));
    expect([none.code, none.params]).toEqual(['TRANSITION_GUARD_FAILED', { transition: 'Reject part', reason: 'reject some quantity of a line' }]);
  });

  it('a total reject moves nothing, emits no event about no goods, and raises an alert', () => {
    const p = plan(inProgress(), 'totalReject', { comment: 'damaged' });
    expect(p.record.lines).toMatchObject([{ rejected: 10, accepted: 0 }, { rejected: 4, accepted: 0 }]);
    expect(p.movements).toEqual([]);
    expect(p.events).toEqual([]);
    expect(p.alerts).toEqual([{ title: expect.objectContaining({ en: 'Shipment rejected' }), description: expect.objectContaining({ en: 'A shipment was rejected in full' }), severity: 'warning' }]);
    expect((p.record.history as { comment?: string }[]).at(-1)!.comment).toBe('damaged');
  });

  it('keeps no comment where the transition asks for none', () => {
    const p = plan(draft(), 'cancel', { comment: 'ignored' });
    expect(p.record.history).toEqual([{ transition: 'cancel', from: 'Draft', to: 'Cancelled', by: 'u1', at: ctx.now }]);
  });

  it('a declaration consumes its inputs and produces its own batch, creating the lot with its dates', () => {
    const p = planTransition(reg, reg.workflows.batch_declaration, {
      id: 'b1', status: 'Draft', deposit: 'd1', material: 'p1', batch: 'P-1', quantity: 100, producedOn: '2026-03-01', expiresOn: '2028-03-01', order: 'OP-7',
      inputs: [{ material: 'ai1', batch: 'A-1', quantity: 48 }],
    }, 'declare', {}, { ...ctx, lookup: { materials: { p1: { gtin: '7790001000017', uom: 'LTR' } }, deposits: { d1: { gln: '7790001000024' } } } });
    expect(p.movements).toEqual([
      { material: 'ai1', batch: 'A-1', deposit: 'd1', quantity: -48 },
      { material: 'p1', batch: 'P-1', deposit: 'd1', quantity: 100, unit: 'LTR' },
    ]);
    expect(p.lots).toEqual([{ material: 'p1', number: 'P-1', elaborationDate: '2026-03-01', expirationDate: '2028-03-01' }]);
    expect(p.events[0]).toMatchObject({
      type: 'TransformationEvent',
      inputQuantityList: [{ epcClass: 'urn:tracemesh:class:ai1:A-1', quantity: 48 }],
      outputQuantityList: [{ epcClass: 'https://id.gs1.org/01/07790001000017/10/P-1', quantity: 100, uom: 'LTR' }],
      readPoint: { id: 'https://id.gs1.org/414/7790001000024' },
      bizTransactionList: [{ type: 'prodorder', bizTransaction: 'urn:tracemesh:bt:prodorder:OP-7' }],
    });
  });

  it('names its events the same when the same transition is planned again', () => {
    expect(plan(draft(), 'confirm').events[0].eventID).toBe(plan(draft(), 'confirm').events[0].eventID);
    expect(plan(draft(), 'confirm').events[0].eventID).not.toBe(plan({ ...draft(), id: 's2' }, 'confirm').events[0].eventID);
  });
});

describe('available transitions', () => {
  const ids = (ts: { id: string }[]) => ts.map((x) => x.id);

  it('are those from the state for which the actor holds the key; a superadmin holds every key', () => {
    expect(ids(availableTransitions(wf, draft(), ['Deliveries'], false))).toEqual(['confirm', 'cancel']);
    expect(ids(availableTransitions(wf, draft(), ['Reception'], false))).toEqual([]);
    expect(ids(availableTransitions(wf, inProgress(), ['Reception'], false))).toEqual(['acceptAll', 'partialReject', 'totalReject']);
    expect(ids(availableTransitions(wf, inProgress(), [], true))).toEqual(['acceptAll', 'partialReject', 'totalReject']);
  });

  it('say why a guarded transition is refused as the record stands, but judge one taking input on its input', () => {
    const noInput = { ...wf, transitions: wf.transitions.map((x) => (x.id === 'partialReject' ? { ...x, input: [] } : x)) };
    const [partial] = availableTransitions(noInput, inProgress(), ['Reception'], false).filter((x) => x.id === 'partialReject');
    expect([partial.allowed, partial.reason?.en]).toEqual([false, 'reject some quantity of a line']);
    expect(availableTransitions(wf, inProgress(), ['Reception'], false).every((x) => x.allowed)).toBe(true);
  });
});

import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { workflowRegistry } from '../testing/workflowFixtures';
import { CBV_BIZ_STEPS, CBV_DISPOSITIONS, cbvUrn, isCbvTerm } from './cbv';
import { buildEvent, epcisUom, locationUri, lotClassUri, type PlanLookup } from './events';
import { planTransition } from './plan';
import type { EventTemplate } from './types';
// The GS1 artefact itself, as published (issue 15: every emitted event validates against it);
// imported rather than read so the engine's tests stay free of Node built-ins.
import schema from '../../../../shared/epcis/EPCIS-JSON-Schema.json';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

const reg = workflowRegistry();
const lookup: PlanLookup = {
  materials: { m1: { gtin: '7790001000017', uom: 'kg' }, p1: { gtin: '07790001000024', uom: 'LTR' } },
  deposits: { d1: { gln: '7790001000031', companyPrefixLength: 7 }, d2: { gln: 'not a gln' } },
};
const now = '2026-03-01T10:00:00.000Z';
const lines = { field: 'lines', material: 'material', batch: 'batch', quantity: 'amount', unit: 'uom' };
const record = {
  id: 'r 1', deposit: 'd1', receiverDeposit: 'd2', shipmentID: 'R/0001', order: 'OP-7',
  material: 'p1', batch: 'P 1', quantity: 100,
  lines: [{ material: 'm1', batch: 'L/1', amount: 10, uom: 'kg' }, { material: 'm2', batch: 'L2', amount: 4.5, uom: 'bolsa' }],
};
const build = (tpl: EventTemplate) => buildEvent(tpl, { scope: { record, userId: 'u1', now }, entity: 'shipment', lookup, key: JSON.stringify(tpl) })!;

/** One event of each kind the workflows emit. */
const templates: Record<string, EventTemplate> = {
  shipping: { type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'shipping', disposition: 'in_transit', lines, readPoint: '$record.deposit', bizLocation: '$record.deposit', bizTransaction: { type: 'desadv', value: '$record.shipmentID' }, source: [{ type: 'owning_party', value: '$record.deposit' }], destination: [{ type: 'urn:epcglobal:cbv:sdt:location', value: '$record.receiverDeposit' }] },
  receiving: { type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'urn:epcglobal:cbv:bizstep:receiving', disposition: 'urn:epcglobal:cbv:disp:in_progress', lines, readPoint: '$record.receiverDeposit' },
  destroying: { type: 'ObjectEvent', action: 'DELETE', bizStep: 'destroying', disposition: 'destroyed', lines, readPoint: '$record.deposit' },
  commissioning: { type: 'ObjectEvent', action: 'ADD', bizStep: 'commissioning', disposition: 'active', lines: { field: '.', material: 'material', batch: 'batch', quantity: 'quantity' }, bizLocation: '$record.deposit' },
  transformation: { type: 'TransformationEvent', bizStep: 'commissioning', disposition: 'active', readPoint: '$record.deposit', bizTransaction: { type: 'prodorder', value: '$record.order' }, inputs: lines, outputs: { field: '.', material: 'material', batch: 'batch', quantity: 'quantity' } },
  fractionation: { type: 'TransformationEvent', bizStep: 'repackaging', outputs: lines },
};

describe('EPCIS 2.0 events', () => {
  for (const [name, tpl] of Object.entries(templates)) {
    it(`a ${name} event validates against the GS1 EPCIS JSON schema, alone and in a document, with CBV terms`, () => {
      const event = build(tpl);
      expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
      const doc = { '@context': event['@context'], type: 'EPCISDocument', schemaVersion: '2.0', creationDate: now, epcisBody: { eventList: [event] } };
      expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
      expect(CBV_BIZ_STEPS).toContain(event.bizStep);
      if (event.disposition !== undefined) expect(CBV_DISPOSITIONS).toContain(event.disposition);
    });
  }

  it('the events a planned transition emits validate too', () => {
    const plan = planTransition(reg, reg.workflows.shipment, {
      id: 's1', status: 'Draft', shipmentID: 'R-1', deposit: 'd1', receiverDeposit: 'd2', lines: [{ material: 'm1', batch: 'L1', amount: 3, uom: 'kg' }],
    }, 'confirm', {}, { userId: 'u1', now, lookup });
    expect(plan.events).toHaveLength(1);
    expect(validate(plan.events[0]), JSON.stringify(validate.errors)).toBe(true);
  });

  it('the schema itself lets a misspelt CBV term through, so the CBV list catches it', () => {
    const event = { ...build(templates.shipping), bizStep: 'https://example.org/shiping' };
    expect(validate(event)).toBe(true);
    expect(isCbvTerm('bizstep', 'shiping')).toBe(false);
    // And the URN form of a CBV term is refused by the schema: EPCIS 2.0 JSON carries CBV terms bare.
    expect(validate({ ...event, bizStep: 'urn:epcglobal:cbv:bizstep:shipping' })).toBe(false);
    expect(validate({ ...event, eventTimeZoneOffset: '3h' })).toBe(false);
    expect(isCbvTerm('bizstep', 'urn:epcglobal:cbv:bizstep:shipping')).toBe(true);
    expect(cbvUrn('disp', 'in_transit')).toBe('urn:epcglobal:cbv:disp:in_transit');
  });

  it('names lots and locations by GS1 keys when known, by the platform ids otherwise', () => {
    const e = build(templates.shipping);
    expect(e.quantityList).toEqual([
      { epcClass: 'https://id.gs1.org/01/07790001000017/10/L%2F1', quantity: 10, uom: 'KGM' },
      { epcClass: 'urn:tracemesh:class:m2:L2', quantity: 4.5 },
    ]);
    expect(e.readPoint).toEqual({ id: 'urn:epc:id:sgln:7790001.00003.0' });
    expect(e.destinationList).toEqual([{ type: 'location', destination: 'urn:tracemesh:location:d2' }]);
    expect(e.bizTransactionList).toEqual([{ type: 'desadv', bizTransaction: 'urn:tracemesh:bt:desadv:R%2F0001' }]);
    expect(e.eventTimeZoneOffset).toBe('+00:00');
    expect(e.eventID).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(locationUri('d9', lookup)).toBe('urn:tracemesh:location:d9');
    expect(lotClassUri('p1', 'X', {})).toBe('urn:tracemesh:class:p1:X');
    expect([epcisUom('Litros'), epcisUom('KGM'), epcisUom('bolsa')]).toEqual(['LTR', 'KGM', undefined]);
  });

  it('emits nothing about no goods', () => {
    expect(buildEvent({ ...templates.receiving, quantity: 0 }, { scope: { record, userId: 'u1', now }, entity: 'shipment', key: 'k' })).toBeUndefined();
  });
});

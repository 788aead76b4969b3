import { describe, expect, it } from 'vitest';
import { canonicalId, checkDigit } from './digitalLink';
import { eventHash, preHash, utcMillis } from './hash';

/**
 * Reference values published with GS1's reference implementation of the algorithm
 * (github.com/RalphTro/epcis-event-hash-generator, tests/examples/expected/CBV2.0): the hash of
 * each event below, computed there. Matching them proves the canonical order, the normalisations
 * and the Digital Link conversions are the standard's.
 */
const SHIPPING = {
  type: 'ObjectEvent', eventTime: '2022-02-16T12:50:00.000+01:00', eventTimeZoneOffset: '+01:00',
  epcList: ['urn:epc:id:sscc:4012345.1112223334'], action: 'OBSERVE', bizStep: 'departing',
  readPoint: { id: 'urn:epc:id:sgln:4012345.00022.0' },
  bizTransactionList: [{ type: 'desadv', bizTransaction: 'urn:epcglobal:cbv:bt:4012345000009:ASN1099' }],
  sourceList: [{ type: 'possessing_party', source: 'urn:epc:id:pgln:4012345.00000' }],
  destinationList: [{ type: 'possessing_party', destination: 'urn:epc:id:pgln:4023333.00000' }],
};
const TRANSPORTING = {
  type: 'ObjectEvent', eventTime: '2022-02-16T16:50:00.000+01:00', eventTimeZoneOffset: '+01:00',
  epcList: ['urn:epc:id:sscc:4012345.1112223334'], action: 'OBSERVE', bizStep: 'transporting', readPoint: { id: 'geo:47.506694,11.104301' },
};
const SHIP_2022 = {
  type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'shipping', disposition: 'in_transit',
  epcList: ['urn:epc:id:sgtin:0614141.107346.2017', 'urn:epc:id:sgtin:0614141.107346.2018'],
  eventTime: '2022-02-16T20:33:31.116000-06:00', eventTimeZoneOffset: '-06:00', readPoint: { id: 'urn:epc:id:sgln:0614141.07346.1234' },
  bizTransactionList: [{ type: 'po', bizTransaction: 'http://transaction.acme.com/po/12345678' }],
};
const RECEIVE_2022 = {
  type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'receiving', disposition: 'in_progress', epcList: ['urn:epc:id:sgtin:0614141.107346.2018'],
  eventTime: '2022-02-16T20:33:31.116-06:00', eventTimeZoneOffset: '-06:00',
  readPoint: { id: 'urn:epc:id:sgln:0012345.11111.400' }, bizLocation: { id: 'urn:epc:id:sgln:0012345.11111.0' },
  bizTransactionList: [{ type: 'po', bizTransaction: 'http://transaction.acme.com/po/12345678' }, { type: 'desadv', bizTransaction: 'urn:epcglobal:cbv:bt:0614141073467:1152' }],
};

describe('the event hash', () => {
  it('matches the reference implementation on its published events', () => {
    expect(eventHash(SHIPPING)).toBe('ni:///sha-256;2919bf0587534fef0e25eea97b5dda68f345e6bbf2c6b4cb27b2a52e0039272b?ver=CBV2.0');
    expect(eventHash(TRANSPORTING)).toBe('ni:///sha-256;1d2ec4174d8f0b5988a44795b31a636e8bc7f88ebc4bdc0d35c14f215a842e80?ver=CBV2.0');
    expect(eventHash(SHIP_2022)).toBe('ni:///sha-256;ffa491b16867e34a7791a8d5389d826afc24e63a121026b6a4004ace38631b4b?ver=CBV2.0');
    expect(eventHash(RECEIVE_2022)).toBe('ni:///sha-256;a207f523e4888a5cf75b5ee1110ebe019baba7e99aafde1d809d50b80727114e?ver=CBV2.0');
  });

  it('writes the standard pre-hash string', () => {
    expect(preHash(SHIPPING)).toBe(
      'eventType=ObjectEventeventTime=2022-02-16T11:50:00.000ZeventTimeZoneOffset=+01:00epcListepc=https://id.gs1.org/00/140123451122233341'
      + 'action=OBSERVEbizStep=https://ref.gs1.org/cbv/BizStep-departingreadPointid=https://id.gs1.org/414/4012345000221'
      + 'bizTransactionListtype=https://ref.gs1.org/cbv/BTT-desadvbizTransaction=urn:epcglobal:cbv:bt:4012345000009:ASN1099'
      + 'sourceListtype=https://ref.gs1.org/cbv/SDT-possessing_partysource=https://id.gs1.org/417/4012345000009'
      + 'destinationListtype=https://ref.gs1.org/cbv/SDT-possessing_partydestination=https://id.gs1.org/417/4023333000000',
    );
  });

  it('is the same whatever the order of fields and list elements, the spelling of terms and identifiers, and the eventID', () => {
    const reordered = {
      ...Object.fromEntries(Object.entries(RECEIVE_2022).reverse()),
      bizStep: 'urn:epcglobal:cbv:bizstep:receiving', disposition: 'https://ref.gs1.org/cbv/Disp-in_progress',
      epcList: ['https://id.gs1.org/01/10614141073464/21/2018'], eventTime: '2022-02-17T02:33:31.116Z',
      bizTransactionList: [...RECEIVE_2022.bizTransactionList].reverse(),
      eventID: 'urn:uuid:7d3ffb7a-0000-4000-8000-000000000001', recordTime: '2030-01-01T00:00:00Z',
      errorDeclaration: { declarationTime: '2030-01-01T00:00:00Z', reason: 'incorrect_data' },
    };
    expect(eventHash(reordered)).toBe(eventHash(RECEIVE_2022));
  });

  it('changes with any value, and with a field added', () => {
    const base = eventHash(SHIPPING);
    expect(eventHash({ ...SHIPPING, action: 'ADD' })).not.toBe(base);
    expect(eventHash({ ...SHIPPING, disposition: 'in_transit' })).not.toBe(base);
    expect(eventHash({ ...SHIPPING, 'example:note': 'x' }, { example: 'http://ns.example.com/epcis/' })).not.toBe(base);
    expect(eventHash({ ...SHIPPING, epcList: ['urn:epc:id:sscc:4012345.1112223335'] })).not.toBe(base);
  });

  it('expands extension CURIEs by the document context, so two prefixes for one namespace hash alike', () => {
    const a = eventHash({ ...SHIPPING, 'ex:f': 'v' }, { ex: 'http://ns.example.com/epcis/' });
    const b = eventHash({ ...SHIPPING, 'other:f': 'v' }, { other: 'http://ns.example.com/epcis/' });
    expect(a).toBe(b);
    expect(preHash({ ...SHIPPING, 'ex:f': ' v ' }, { ex: 'http://ns.example.com/epcis/' })).toMatch(/\{http:\/\/ns\.example\.com\/epcis\/\}f=v$/);
  });
});

describe('identifiers and times in their one spelling', () => {
  it('converts EPC URIs to canonical GS1 Digital Links', () => {
    expect(canonicalId('urn:epc:id:sgtin:0614141.107346.2018')).toBe('https://id.gs1.org/01/10614141073464/21/2018');
    expect(canonicalId('urn:epc:class:lgtin:4012345.012345.998877')).toBe('https://id.gs1.org/01/04012345123456/10/998877');
    expect(canonicalId('urn:epc:idpat:sgtin:4012345.066666.*')).toBe('https://id.gs1.org/01/04012345666663');
    expect(canonicalId('urn:epc:id:sgln:0012345.11111.400')).toBe('https://id.gs1.org/414/0012345111112/254/400');
    expect(canonicalId('urn:epc:id:sgln:4012345.00022.0')).toBe('https://id.gs1.org/414/4012345000221');
    expect(canonicalId('urn:epc:id:gdti:0614141.00001.1618034')).toBe('https://id.gs1.org/253/06141410000121618034');
    expect(canonicalId('urn:epc:id:gsrn:0614141.0000010253')).toBe('https://id.gs1.org/8018/061414100000102534');
    expect(canonicalId('urn:epc:id:giai:4000001.111')).toBe('https://id.gs1.org/8004/4000001111');
    expect(canonicalId('urn:epc:id:sscc:0614141.1234567890')).toBe('https://id.gs1.org/00/106141412345678908');
  });

  it('constrains Digital Links: the id.gs1.org domain, no query, the finest key, a 14-digit GTIN', () => {
    expect(canonicalId('https://example.com/01/9506000134352/10/ABC/21/7?17=250101')).toBe('https://id.gs1.org/01/09506000134352/21/7');
    expect(canonicalId('https://example.org/8004/401234599999')).toBe('https://id.gs1.org/8004/401234599999');
    expect(canonicalId('http://transaction.acme.com/po/12345678')).toBe('http://transaction.acme.com/po/12345678');
    expect(canonicalId('urn:tracemesh:class:m1:L%201')).toBe('urn:tracemesh:class:m1:L%201');
  });

  it('computes GS1 check digits', () => {
    expect(checkDigit('03600029145')).toBe('2');
    expect(checkDigit('1061414107346')).toBe('4');
  });

  it('writes times in UTC with three fraction digits, rounding a fourth', () => {
    expect(utcMillis('2005-04-03T20:33:31.116000-06:00')).toBe('2005-04-04T02:33:31.116Z');
    expect(utcMillis('2020-06-07T17:10:16Z')).toBe('2020-06-07T17:10:16.000Z');
    expect(utcMillis('2020-06-07T17:10:16.1235+00:00')).toBe('2020-06-07T17:10:16.124Z');
    expect(utcMillis('not a time')).toBe('not a time');
  });
});

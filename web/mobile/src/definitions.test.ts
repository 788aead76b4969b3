import { describe, expect, it } from 'vitest';
import { actionsFor, choicesOf, coerce, collectLines, holdsSerial, lineProps, effectiveState, fieldLabel, fieldSchema, geoFields, inputKind, listRefs, mapPoints, nestFields, normaliseFeature, recordTitle, requiredFields, shownValue, stateOf } from './definitions';
import { BATCH, DISTRIBUTOR, MAP_LOCATION, QC, RETURNS } from './testing/features';
import type { QueuedAction } from './types';

const queued = (over: Partial<QueuedAction>): QueuedAction => ({
  seq: 1, feature: QC.id, workflow: 'ibc', recordId: 'r1', kind: 'transition', transition: 'startQC', at: '', offline: false, user: 'u', group: null, status: 'pending', ...over,
});

describe('actionsFor: the actions a record\'s state offers', () => {
  it('offers the feature\'s actions whose transition may start from the state, in the definition\'s order, labelled in the language', () => {
    expect(actionsFor(QC, 'returned', 'en').map((a) => a.transition)).toEqual(['startQC']);
    expect(actionsFor(QC, 'in_qc', 'es').map((a) => [a.transition, a.label, a.to])).toEqual([
      ['passQC', 'Aprobar control', 'in_stock_empty'], ['block', 'Bloquear', 'blocked'],
    ]);
    expect(actionsFor(QC, 'in_qc', 'en')[1]).toMatchObject({ fields: ['qcDate', 'qcResult'], comment: 'required' });
  });

  it('offers nothing for a state no transition starts from, for no state, or for a transition the definition lacks', () => {
    expect(actionsFor(QC, 'disposed', 'en')).toEqual([]);
    expect(actionsFor(QC, null, 'en')).toEqual([]);
    expect(actionsFor({ ...QC, actions: [{ transition: 'fly', fields: [] }] }, 'in_qc', 'en')).toEqual([]);
  });

  it('keeps a transition without a target state (it stays)', () => {
    expect(actionsFor(MAP_LOCATION, 'at_customer', 'fr')).toEqual([{ transition: 'mapLocation', label: 'Localiser', fields: ['location.lat', 'location.lng'], to: null, comment: 'optional', required: [] }]);
  });
});

describe('effectiveState: the queue laid over the kept record', () => {
  const rec = { id: 'r1', state: 'returned' };
  it('takes a pending transition\'s target, ignores a rejected one, and a verdict newer than the copy', () => {
    expect(effectiveState(rec, [queued({})], QC, 0)).toBe('in_qc');
    expect(effectiveState(rec, [queued({ status: 'rejected' })], QC, 0)).toBe('returned');
    expect(effectiveState(rec, [queued({ status: 'applied', record: { id: 'r1', state: 'in_qc' }, doneAt: 10 })], QC, 5)).toBe('in_qc');
    // A list read after the verdict is the server's word.
    expect(effectiveState({ id: 'r1', state: 'blocked' }, [queued({ status: 'applied', record: { id: 'r1', state: 'in_qc' }, doneAt: 10 })], QC, 20)).toBe('blocked');
    expect(effectiveState(rec, [queued({ recordId: 'other' })], QC, 0)).toBe('returned');
  });

  it('chains pending actions in order, and keeps the state for a transition that stays', () => {
    const two = [queued({}), queued({ seq: 2, transition: 'passQC' })];
    expect(effectiveState(rec, two, QC, 0)).toBe('in_stock_empty');
    expect(effectiveState({ id: 'r1', state: 'at_customer' }, [queued({ feature: MAP_LOCATION.id, transition: 'mapLocation' })], MAP_LOCATION, 0)).toBe('at_customer');
  });

  it('gives a record created on the device the feature\'s initial state', () => {
    expect(effectiveState({ id: 'n1', state: null }, [queued({ recordId: 'n1', kind: 'create', transition: undefined })], DISTRIBUTOR, 0)).toBe('draft');
  });
});

describe('fields', () => {
  it('finds a field by name or dotted path, and its input by schema', () => {
    expect(inputKind(fieldSchema(QC, 'qcDate'))).toBe('date');
    expect(inputKind(fieldSchema(QC, 'qcResult'))).toBe('select');
    expect(inputKind(fieldSchema(QC, 'inspection'))).toBe('boolean');
    expect(inputKind(fieldSchema(MAP_LOCATION, 'location.lat'))).toBe('number');
    expect(inputKind(fieldSchema(DISTRIBUTOR, 'destination'))).toBe('reference');
    expect(inputKind(fieldSchema(DISTRIBUTOR, 'quantity'))).toBe('integer');
    expect(inputKind({ type: 'string' }, 'nfcTagNumber')).toBe('nfc');
    expect(inputKind(fieldSchema(QC, 'unknown'))).toBe('text');
    expect(fieldLabel(MAP_LOCATION, 'location.lng', 'es')).toBe('Longitud');
    expect(fieldLabel(QC, 'no.such', 'en')).toBe('such');
  });

  it('knows the required ones (top-level or nested) and the latitude/longitude pair', () => {
    expect(requiredFields(QC, ['qcDate', 'qcResult'])).toEqual(['qcDate']);
    expect(requiredFields(MAP_LOCATION, ['location.lat', 'location.lng'])).toEqual(['location.lat', 'location.lng']);
    expect(geoFields(['location.lat', 'location.lng'])).toEqual({ lat: 'location.lat', lng: 'location.lng' });
    expect(geoFields(['qcDate'])).toBeNull();
  });

  it('types what was typed and shapes it like the record', () => {
    expect(coerce({ type: 'number' }, '12,5')).toBe(12.5);
    expect(coerce({ type: 'integer' }, '3')).toBe(3);
    expect(coerce({ type: 'string' }, '  ')).toBeUndefined();
    expect(coerce({ enum: [1, 3] }, '3')).toBe(3);
    expect(coerce({ type: 'boolean' }, true)).toBe(true);
    expect(nestFields({ 'location.lat': -34.6, 'location.lng': -58.4, qcDate: '2026-01-02', skip: undefined })).toEqual({ location: { lat: -34.6, lng: -58.4 }, qcDate: '2026-01-02' });
  });

  it('titles a record by the list definition, else its serial or id', () => {
    expect(recordTitle(QC, { id: 'r1', serial_number: 'IBC-1', material_type: 'HDPE' })).toEqual({ title: 'IBC-1', subtitle: 'HDPE' });
    expect(recordTitle(MAP_LOCATION, { id: 'r2', serial_number: 'IBC-2' }).title).toBe('IBC-2');
    expect(recordTitle(DISTRIBUTOR, { id: 'r3' }).title).toBe('r3');
  });
});

describe('shownValue: a listed value as a person reads it', () => {
  const deposits = [{ id: '01M8GJ3FTQ1TKXYRG2JPR8JHM6', name: 'Depósito Envasado Campana' }, { id: 'd2', code: 'D-2' }];
  const record = { id: 'r1', serial_number: 'IBC-1', status: 'in_stock_empty', deposit_id: '01M8GJ3FTQ1TKXYRG2JPR8JHM6', returnState: 'empty', returnDate: '2024-03-05' };

  it('gives the state field its state\'s label in the language (not the option\'s), a choice its label, a reference its record\'s name, a date the language\'s date', () => {
    const view = { lang: 'es' as const, refs: { company_division: deposits } };
    expect(shownValue(RETURNS, 'status', 'in_stock_empty', view)).toBe('En stock, vacío');
    expect(shownValue(RETURNS, 'returnState', 'full', view)).toBe('Lleno');
    expect(shownValue(RETURNS, 'deposit_id', 'd2', view)).toBe('D-2');
    expect(shownValue(RETURNS, 'deposit_id', { id: 'd2' }, view)).toBe('D-2');
    expect(shownValue(RETURNS, 'returnDate', '2024-03-05', view)).toBe(new Date(Date.UTC(2024, 2, 5)).toLocaleDateString('es', { timeZone: 'UTC' }));
    expect(recordTitle(RETURNS, record, { lang: 'en', refs: { company_division: deposits } })).toEqual({
      title: 'IBC-1', subtitle: `In stock, empty · Depósito Envasado Campana · Empty · ${new Date(Date.UTC(2024, 2, 5)).toLocaleDateString('en', { timeZone: 'UTC' })}`,
    });
  });

  it('falls back to the raw value: a reference while its master data loads or when not kept, an unknown choice or state, a text that is no date', () => {
    expect(shownValue(RETURNS, 'deposit_id', 'gone', { lang: 'en', refs: { company_division: deposits } })).toBe('gone');
    expect(recordTitle(RETURNS, record, { lang: 'en' }).subtitle).toContain('In stock, empty · 01M8GJ3FTQ1TKXYRG2JPR8JHM6 · Empty');
    expect(shownValue(RETURNS, 'returnState', 'broken', { lang: 'en' })).toBe('broken');
    expect(shownValue(RETURNS, 'status', 'scrapped', { lang: 'en' })).toBe('scrapped');
    expect(shownValue(RETURNS, 'returnDate', 'soon', { lang: 'en' })).toBe('soon');
    expect(shownValue(RETURNS, 'returnDate', null, { lang: 'en' })).toBe('');
    // Without a view, the values as stored.
    expect(recordTitle(RETURNS, record).subtitle).toBe('in_stock_empty · 01M8GJ3FTQ1TKXYRG2JPR8JHM6 · empty · 2024-03-05');
  });

  it('names the entities a list references, each once', () => {
    expect(listRefs(RETURNS)).toEqual(['company_division']);
    expect(listRefs(QC)).toEqual([]);
  });
});

describe('normaliseFeature: the server\'s shapes', () => {
  it('takes transitions as a list, actions without fields, `source` beside `list`, and the transition\'s required fields and comment rule', () => {
    const f = normaliseFeature({
      id: 'performQc', key: 'ibc.mobile.performqc', icon: 'qc', workflow: 'ibc', scan: 'ibc', label: 'Perform QC',
      list: { states: ['returned'], title: 'serial_number' },
      actions: [{ transition: 'startQC' }, { transition: 'passQC', fields: ['qcDate'] }],
      transitions: [
        { transition: 'startQC', label: 'Start QC', from: ['returned'], to: 'in_qc', fields: [], required: [], comment: 'none' },
        { transition: 'passQC', label: 'Pass QC', from: ['in_qc'], to: 'in_stock_empty', fields: ['qcDate'], required: ['qcDate'], comment: 'optional' },
      ],
    });
    expect(f.actions).toEqual([{ transition: 'startQC', fields: [], comment: 'none' }, { transition: 'passQC', fields: ['qcDate'], comment: 'optional' }]);
    expect(actionsFor(f, 'in_qc', 'en')).toEqual([{ transition: 'passQC', label: 'Pass QC', fields: ['qcDate'], to: 'in_stock_empty', comment: 'optional', required: ['qcDate'] }]);
    expect(requiredFields(f, ['qcDate'], ['qcDate'])).toEqual(['qcDate']);
    const stock = normaliseFeature({ id: 'out', key: 'ibc.mobile.productinventory', icon: 'outbound', workflow: '', label: 'Out', source: 'stock', list: { title: 'material' } });
    expect(stock.list).toEqual({ title: 'material', states: [], source: 'stock' });
    expect(stock.actions).toEqual([]);
  });

  it('reads the state from the workflow\'s field', () => {
    expect(stateOf({ status: 'in_qc', state: 1 })).toBe('in_qc');
    expect(stateOf({ deliveryStatus: 'Draft' })).toBe('Draft');
    expect(stateOf({ ibcStatus: 'Prepared' })).toBe('Prepared');
    expect(stateOf({ x: { y: 'z' } }, 'x.y')).toBe('z');
    expect(stateOf({})).toBeNull();
  });
});

describe('lines: an array of objects', () => {
  const containers = BATCH.fields.properties!.containers;
  const items = containers.items!;

  it('gets the lines input and is required when it asks at least one item', () => {
    expect(inputKind(containers)).toBe('lines');
    expect(inputKind({ type: 'array', items: { type: 'string', 'x-ref': 'ibc_container' } })).toBe('text');
    expect(requiredFields(BATCH, ['batchDate', 'containers'])).toEqual(['containers']);
  });

  it('asks every property but an optional reference beside others; a lone or required reference is asked', () => {
    expect(lineProps(items)).toEqual(['ibcNumber', 'quantity', 'topSeal', 'full']);
    expect(lineProps({ ...items, required: ['ibc'] })).toEqual(['ibc', 'ibcNumber', 'quantity', 'topSeal', 'full']);
    expect(lineProps({ type: 'object', properties: { ibc: { 'x-ref': 'ibc_container' } } })).toEqual(['ibc']);
    expect(['ibcNumber', 'serial_number', 'quantity'].map(holdsSerial)).toEqual([true, true, false]);
  });

  it('coerces each property, drops blank lines and names the first kept line missing a required property', () => {
    expect(collectLines(items, [{ ibcNumber: 'A', quantity: '1,5', topSeal: 'S' }, { ibcNumber: ' ', full: false }, {}])).toEqual({ value: [{ ibcNumber: 'A', quantity: 1.5, topSeal: 'S' }] });
    expect(collectLines(items, [{}, { ibcNumber: 'A', quantity: '2' }])).toEqual({ value: [], missing: { line: 1, prop: 'topSeal' } });
  });
});

describe('choices: a field with options, as the server\'s schema gives them', () => {
  // engine toJsonSchema writes a field's options as a oneOf of constants with their labels (a return's state, an IBC's material type).
  const returnState = { type: 'string', title: 'Return state', oneOf: [{ const: 'empty', title: 'Empty' }, { const: 'full', title: 'Full' }] };
  const state = { type: 'integer', oneOf: [{ const: 1, title: { en: 'Active', es: 'Activo', fr: 'Actif' } }, { const: 3, title: 'Disabled' }] };

  it('is a choice of the constants with their titles, like an enum with its labels', () => {
    expect(inputKind(returnState, 'returnState')).toBe('select');
    expect(choicesOf(returnState)).toEqual([{ value: 'empty', label: 'Empty' }, { value: 'full', label: 'Full' }]);
    expect(choicesOf({ enum: ['a', 'b'], 'x-enumLabels': ['A'] })).toEqual([{ value: 'a', label: 'A' }, { value: 'b', label: undefined }]);
    expect(choicesOf({ type: 'string' })).toBeNull();
  });

  it('sends a numeric constant as a number, anything else as typed', () => {
    expect(coerce(state, '3')).toBe(3);
    expect(coerce(state, '2')).toBe('2');
    expect(coerce(returnState, 'full')).toBe('full');
  });
});

describe('mapPoints: a list with a map', () => {
  it('turns the records with both coordinates into titled points and counts the others', () => {
    const records = [
      { id: 'a', serial_number: 'IBC-1', location: { lat: -34.6, lng: -58.4 } },
      { id: 'b', serial_number: 'IBC-2', location: { lat: -31.4 } },
      { id: 'c', serial_number: 'IBC-3' },
      { id: 'd', serial_number: 'IBC-4', location: { lat: 95, lng: 0 } },
      { id: 'e', location: { lat: 0, lng: 0 } },
    ];
    expect(mapPoints(MAP_LOCATION, records)).toEqual({
      points: [{ id: 'a', lat: -34.6, lng: -58.4, title: 'IBC-1' }, { id: 'e', lat: 0, lng: 0, title: 'e' }],
      unplaced: 3,
    });
    expect(mapPoints(QC, records)).toBeNull();
  });
});

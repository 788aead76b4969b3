import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../api/errors';
import { routeWidgets } from '../formSchema';
import { addContainer, containerLines, findContainer, removeContainer, type ContainerScope } from './containerLogic';
import { lineListField } from './keys';

type Rec = Record<string, unknown>;
const ibc = (id: string, serial: string, nfc?: string) => ({ id, serial_number: serial, nfcTagNumber: nfc, status: 'in_stock_empty' });
const fleet = [ibc('i1', 'IBC-001', 'TAG-A'), ibc('i2', 'IBC-002')];

/** The look-up route's behaviour (CONTRACT16): the IBC by serial or tag, else 404 VALUE_NOT_FOUND naming the value. */
const scope: ContainerScope & { calls: string[] } = {
  calls: [],
  async lookup(by) {
    const [key, value] = 'serial' in by ? ['serial', by.serial] : ['nfc', by.nfc];
    scope.calls.push(`${key}=${value}`);
    const hit = fleet.find((r) => (key === 'serial' ? r.serial_number : r.nfcTagNumber) === value);
    if (!hit) throw new ApiRequestError(404, 'VALUE_NOT_FOUND', `No ibc_container has ${key === 'serial' ? 'serial_number' : 'nfcTagNumber'} "${value}"`, [], { value });
    return hit as Rec;
  },
};

describe('container lines', () => {
  it('finds an IBC by its serial number, or by its NFC tag when no serial matches', async () => {
    scope.calls = [];
    expect((await findContainer(scope, ' IBC-002 ')).id).toBe('i2');
    expect((await findContainer(scope, 'TAG-A')).id).toBe('i1');
    expect(scope.calls).toEqual(['serial=IBC-002', 'serial=TAG-A', 'nfc=TAG-A']);
  });

  it('says an unknown value with the serial look-up’s 404, which names it', async () => {
    await expect(findContainer(scope, 'NOPE')).rejects.toMatchObject({ status: 404, code: 'VALUE_NOT_FOUND', message: expect.stringContaining('"NOPE"') });
  });

  it('passes any other failure on as it is', async () => {
    const down: ContainerScope = { lookup: async () => { throw new ApiRequestError(403, 'FORBIDDEN', 'no'); } };
    await expect(findContainer(down, 'IBC-001')).rejects.toMatchObject({ status: 403 });
  });

  it('adds an IBC as {ibc: id, ibcNumber: serial} at the end, keeping the other lines and their fields', () => {
    const lines = [{ ibc: 'i9', ibcNumber: 'IBC-009', quantity: 900, topSeal: 'S1' }];
    const r = addContainer(lines, fleet[0]);
    expect(r).toEqual({ lines: [...lines, { ibc: 'i1', ibcNumber: 'IBC-001' }] });
    expect(lines).toHaveLength(1);
  });

  it('names the IBC by id only where the lines carry no serial (a bulk fractionation)', () => {
    expect(addContainer([], fleet[1], false)).toEqual({ lines: [{ ibc: 'i2' }] });
    expect(addContainer([{ ibc: 'i2' }], fleet[1], false)).toEqual({ duplicate: 'IBC-002' });
  });

  it('refuses an IBC already listed, by id or by serial', () => {
    expect(addContainer([{ ibc: 'i1', ibcNumber: 'IBC-001' }], fleet[0])).toEqual({ duplicate: 'IBC-001' });
    expect(addContainer([{ ibcNumber: 'IBC-002' }], fleet[1])).toEqual({ duplicate: 'IBC-002' });
  });

  it('removes a line and reads whatever the form holds as lines', () => {
    expect(removeContainer([{ ibc: 'a' }, { ibc: 'b' }, { ibc: 'c' }], 1)).toEqual([{ ibc: 'a' }, { ibc: 'c' }]);
    expect(containerLines(undefined)).toEqual([]);
    expect(containerLines([{ ibc: 'a' }, null, 'x'])).toEqual([{ ibc: 'a' }]);
    // The blank line a form starts a required list with names no IBC: dropped, so the first IBC added is the first line.
    expect(containerLines([{}, { quantity: 5, ibc: '' }, { ibcNumber: 'S-1' }])).toEqual([{ ibcNumber: 'S-1' }]);
    const added = addContainer(containerLines([{}]), { id: 'i1', serial_number: 'S-1' });
    expect(added).toEqual({ lines: [{ ibc: 'i1', ibcNumber: 'S-1' }] });
  });

  it('draws a list whose lines reference ibc_container with the container list, other lists with RJSF’s layout', () => {
    const items = (ref: string) => ({ ibc: { 'ui:options': { widget: 'picker', ref } }, quantity: { 'ui:options': { widget: 'number' } } });
    expect(lineListField(items('ibc_container'))).toBe('containers');
    expect(lineListField(items('material'))).toBeUndefined();
    const schema = { type: 'object', properties: { containers: { type: 'array', items: { type: 'object', properties: { ibc: { type: 'string' }, quantity: { type: 'number' } } } } } };
    const ui = routeWidgets(schema as never, { containers: { 'ui:options': { widget: 'list' }, items: items('ibc_container') } } as never) as Rec;
    expect((ui.containers as Rec)['ui:field']).toBe('containers');
    const other = routeWidgets(schema as never, { containers: { 'ui:options': { widget: 'list' }, items: items('material') } } as never) as Rec;
    expect((other.containers as Rec)['ui:field']).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { deriveFields } from './derive';
import type { DeriveDef } from './types';

const shipmentType: DeriveDef = { field: 'shipmentType', cases: [{ when: { receiverCompanyType: 'internal' }, value: 'internal' }], otherwise: 'external' };

describe('derived fields', () => {
  it('take the value of the first matching case, else otherwise, whatever the record held', () => {
    const wf = { derive: [shipmentType] };
    expect(deriveFields(wf, { receiverCompanyType: 'internal', shipmentType: 'external' })).toEqual({ receiverCompanyType: 'internal', shipmentType: 'internal' });
    for (const t of ['distributor', 'customer', 'carrier', undefined]) expect(deriveFields(wf, { receiverCompanyType: t }).shipmentType).toBe('external');
  });

  it('run in order on nested paths and MongoDB operators, a later one reading an earlier one, without touching the input', () => {
    const wf = {
      derive: [
        { field: 'truck.kind', cases: [{ when: { 'lines.amount': { $gt: 1000 } }, value: 'tanker' }, { when: { lines: { $size: 0 } }, value: null }], otherwise: 'van' },
        { field: 'escort', cases: [{ when: { 'truck.kind': 'tanker' }, value: true }], otherwise: false },
      ] satisfies DeriveDef[],
    };
    const big = { lines: [{ amount: 10 }, { amount: 5000 }], truck: { plate: 'AB1' } };
    expect(deriveFields(wf, big)).toEqual({ ...big, truck: { plate: 'AB1', kind: 'tanker' }, escort: true });
    expect(big.truck).toEqual({ plate: 'AB1' });
    expect(deriveFields(wf, { lines: [] })).toMatchObject({ truck: { kind: null }, escort: false });
    expect(deriveFields(wf, { lines: [{ amount: 3 }] })).toMatchObject({ truck: { kind: 'van' }, escort: false });
    expect(deriveFields({ derive: [] }, big)).toBe(big);
  });
});

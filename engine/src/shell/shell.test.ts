import { describe, expect, it } from 'vitest';
import { passwordStrength } from './password';
import { initials } from './initials';
import { mapWarehouseGroups, restoreWarehouseSelection, selectedWarehouseKey } from './warehouses';
import { canAccess } from './access';

describe('password strength (SPEC 5)', () => {
  it.each([
    ['', null], ['a', 'weak'], ['abcdef', 'weak'], ['abcde1', 'medium'], ['Abcdef', 'medium'], ['ABCDE1', 'medium'],
    ['Abcde1', 'medium'], ['abcdefg1', 'medium'], ['Abcdefg1', 'strong'], ['Abcd1', 'weak'], ['!!!!!!!!', 'weak'],
  ])('rates %j as %s', (pw, expected) => {
    expect(passwordStrength(pw)).toBe(expected);
  });
});

describe('avatar initials (SPEC 2.1)', () => {
  it.each([
    ['Ana María López', 'x@y.z', 'AM'], ['ana', 'x@y.z', 'A'], ['', 'juan.perez@acme.com', 'JP'],
    [null, 'juan_carlos-perez@acme.com', 'JC'], [undefined, 'j@acme.com', 'J'], ['  élodie  durand ', '', 'ÉD'],
  ])('of %j and %j are %s', (name, email, expected) => {
    expect(initials(name, email)).toBe(expected);
  });
});

describe('warehouse groups (SPEC 3.4)', () => {
  const raw = [
    { name: 'North', description: 'n', warehouseList: [
      { depositId: 'D1', id: 'X1', divisionName: 'Deposit One', erpId: 'E1', depositPlantId: 'P1', companyId: 'C1' },
      { depositId: 'D2', id: 'X2', divisionName: 'Deposit Two', erpId: 'E2', companyId: 'C1' },
    ] },
    { name: 'Empty', warehouseList: [] },
    { name: 'South', warehouseList: [{ depositId: 'D3', id: 'X3', divisionName: 'Deposit Three', erpId: 'E3', companyId: 'C2' }] },
  ];

  it('maps each warehouse and drops groups with an empty list', () => {
    const groups = mapWarehouseGroups(raw);
    expect(groups.map((g) => g.name)).toEqual(['North', 'South']);
    expect(groups[0].warehouseList).toEqual([
      { id: 'D1', optchainId: 'X1', name: 'Deposit One', label: 'Deposit One (E1)', plantId: 'P1', companyId: 'C1', erpId: 'E1' },
      { id: 'D2', optchainId: 'X2', name: 'Deposit Two', label: 'Deposit Two (E2)', plantId: null, companyId: 'C1', erpId: 'E2' },
    ]);
  });

  it('restores the saved group by name, else the first, else none', () => {
    const groups = mapWarehouseGroups(raw);
    expect(restoreWarehouseSelection(groups, 'South')?.name).toBe('South');
    expect(restoreWarehouseSelection(groups, 'Gone')?.name).toBe('North');
    expect(restoreWarehouseSelection([], 'South')).toBeNull();
  });

  it('stores the selection under a key prefixed with the deployment name', () => {
    expect(selectedWarehouseKey('agro')).toMatch(/^agro.*selectedWarehouse$/);
  });
});

describe('access (SPEC 6)', () => {
  const groups = [{ name: 'North', access: ['Imports'] }, { name: 'North', access: ['Deliveries'] }, { name: 'South', access: [] }];
  it('lets superadmin see everything', () => {
    expect(canAccess({ access: ['superadmin'] }, { key: 'Anything' })).toBe(true);
  });
  it('shows an entry with no requirement or when the access holds its key', () => {
    expect(canAccess({ access: [] }, {})).toBe(true);
    expect(canAccess({ access: ['Reports'] }, { key: 'Reports' })).toBe(true);
    expect(canAccess({ access: ['Reports'] }, { key: 'Imports' })).toBe(false);
  });
  it('narrows customer-module features by the pooled access of the selected warehouse group', () => {
    const p = { access: ['Imports', 'Exports'], groups };
    expect(canAccess({ ...p, selectedWarehouse: 'North' }, { key: 'Imports', customerModule: true })).toBe(true);
    expect(canAccess({ ...p, selectedWarehouse: 'North' }, { key: 'Exports', customerModule: true })).toBe(false);
    expect(canAccess({ ...p, selectedWarehouse: 'North' }, { key: 'Exports' })).toBe(true);
    // An empty pool adds no restriction.
    expect(canAccess({ ...p, selectedWarehouse: 'South' }, { key: 'Exports', customerModule: true })).toBe(true);
  });
});

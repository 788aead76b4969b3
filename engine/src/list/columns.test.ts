import { describe, expect, it } from 'vitest';
import { fixtureRegistry } from '../testing/fixtures';
import { cellText, columnsOf, formatValue, recordTitle, referencedIds, referenceId, sortablePaths } from './index';

const reg = fixtureRegistry();

describe('list columns', () => {
  it('sort only by what the list API sorts by: system paths, searchable, sortable, title and state fields', () => {
    const paths = sortablePaths(reg, reg.entities.company);
    expect([...paths]).toEqual(expect.arrayContaining(['id', 'createdAt', 'updatedAt', 'company_name', 'state']));
    expect(paths.has('phone_number')).toBe(false); // a list of values
    expect(paths.has('email')).toBe(false);
    const cols = columnsOf(reg, 'company', 'en');
    expect(cols.find((c) => c.path === 'company_name')?.sortable).toBe(true);
    expect(cols.find((c) => c.path === 'email')?.sortable).toBe(false);
  });

  it('label columns in the language asked, with a Spanish fallback to the definition', () => {
    expect(columnsOf(reg, 'company', 'es').find((c) => c.path === 'company_name')?.label).toBe('Company name (es)');
    expect(columnsOf(reg, 'nope', 'en')).toEqual([]);
  });
});

describe('reference cells', () => {
  const parent = columnsOf(reg, 'company', 'en').find((c) => c.path === 'parent_company_id')!;

  it("show the referenced record's title when the page brought it, else the id", () => {
    const titles = { company: { c1: 'Acme SA' } };
    expect(cellText(parent, { parent_company_id: 'c1' }, 'en', titles)).toBe('Acme SA');
    expect(cellText(parent, { parent_company_id: { id: 'c1' } }, 'en', titles)).toBe('Acme SA');
    expect(cellText(parent, { parent_company_id: 'c9' }, 'en', titles)).toBe('c9');
    expect(cellText(parent, { parent_company_id: 'c1' }, 'en')).toBe('c1');
    // Titles of another entity never stand in for this one's.
    expect(formatValue(parent.field, 'c1', 'en', { material: { c1: 'Urea' } })).toBe('c1');
  });

  it('group the ids a page refers to by target entity, once each, lists and embedded ids included', () => {
    const cols = columnsOf(reg, 'company', 'en');
    const ids = referencedIds(cols, [
      { parent_company_id: 'c1' }, { parent_company_id: 'c1' }, { parent_company_id: { id: 'c2' } }, { parent_company_id: '' }, {},
    ]);
    expect([...ids.keys()]).toEqual(['company']);
    expect([...ids.get('company')!]).toEqual(['c1', 'c2']);
    expect(referenceId(7)).toBe('7');
    expect(referenceId({ name: 'no id' })).toBeUndefined();
  });

  it("title a record by its entity's title field, else by its id", () => {
    expect(recordTitle(reg.entities.company, { id: 'c1', company_name: 'Acme' }, 'en')).toBe('Acme');
    expect(recordTitle(reg.entities.company, { id: 'c1', company_name: '' }, 'en')).toBe('c1');
    expect(recordTitle(reg.entities.material, { id: 'm1', name: 'Urea' }, 'en')).toBe('m1'); // no title field
    expect(recordTitle(undefined, undefined, 'en')).toBe('');
  });
});

describe('lists of rows in a cell (issue 14: recipes showed empty Input/Output materials)', () => {
  const inputs = { path: 'inputs', label: 'Inputs', sortable: false, field: reg.entities.material.fields.find((f) => f.id === 'inputs') };
  const rows = { inputs: [{ material: 'm1', quantity: 2 }, { material: 'm2', quantity: 1 }, { material: 'm3', quantity: 4 }] };
  const titles = { material: { m1: 'Glyphosate 48', m2: 'Urea' } };

  it('sum up the first row (its reference title, then its quantity) and count the others, in each language', () => {
    expect(cellText(inputs, rows, 'en', titles)).toBe('Glyphosate 48 × 2, +2 more');
    expect(cellText(inputs, rows, 'es', titles)).toBe('Glyphosate 48 × 2, +2 más');
    expect(cellText(inputs, rows, 'fr', titles)).toBe('Glyphosate 48 × 2, +2 de plus');
    expect(cellText(inputs, { inputs: [{ material: 'm2', quantity: 1 }] }, 'en', titles)).toBe('Urea × 1');
    expect(cellText(inputs, { inputs: [] }, 'en', titles)).toBe('');
  });

  it('ask for the titles the first row refers to', () => {
    expect(referencedIds([inputs], [rows])).toEqual(new Map([['material', new Set(['m1'])]]));
  });
});

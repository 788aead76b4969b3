import { describe, expect, it } from 'vitest';
import { requireDefinitions } from '../../../definitions/read';
import { listParams } from './api';
import { catalogueFor, entityAccess, mayOpenEntity } from './catalogue';
import { cellText, columnsOf, formatDate, formatNumber, formatValue } from '../../../engine/src/list/index';
import { entityActions } from './entityActions';
import { listQueryOf, sortParam } from './listState';
import { pickerMinChars } from './widgets/pickerLogic';
import { checkFile } from './widgets/uploadLogic';

const registry = requireDefinitions(process.cwd());

describe('catalogue', () => {
  it('lists only the entities whose access key the user holds, "Master Data" by default', () => {
    const names = catalogueFor(registry, { access: ['Master Data'] }, 'en').map((e) => e.name);
    expect(names).toContain('company');
    expect(names).not.toContain('user');
    expect(entityAccess(registry, 'company')).toBe('Master Data');
    expect(catalogueFor(registry, { access: [] }, 'en')).toEqual([]);
  });

  it('shows a superadmin everything except entities with a screen of their own', () => {
    const names = catalogueFor(registry, { access: ['superadmin'] }, 'es', new Set(['user', 'group'])).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['company', 'lot', 'organisation']));
    expect(names).not.toContain('user');
    expect(catalogueFor(registry, { access: ['superadmin'] }, 'es').find((e) => e.name === 'company')!.pluralLabel).toBe('Empresas');
  });

  it('never shows an operation: its records change only through its workflow', () => {
    const operations = Object.values(registry.entities).filter((e) => e.kind === 'operation').map((e) => e.name);
    expect(operations).toEqual(expect.arrayContaining(['delivery', 'product_import', 'product_declaration']));
    const names = catalogueFor(registry, { access: ['superadmin'] }, 'en').map((e) => e.name);
    for (const name of operations) expect(names).not.toContain(name);
    expect(mayOpenEntity(registry, { access: ['superadmin'] }, 'delivery')).toBe(false);
  });
});

describe('columns', () => {
  it('come from listColumns with labels in the current language, sortable where the server sorts', () => {
    const cols = columnsOf(registry, 'company', 'es').filter((c) => !c.optional);
    expect(cols.map((c) => c.path)).toEqual(['company_name', 'email', 'phone_number', 'parent_company_id', 'address.city', 'state']);
    expect(cols[0]).toMatchObject({ label: 'Razón social', sortable: true });
    expect(cols.find((c) => c.path === 'phone_number')!.sortable).toBe(false);
  });

  it('add a Senasa Sync column only for entities that sync', () => {
    const synced = { ...registry, entities: { ...registry.entities, company: { ...registry.entities.company, sync: true } } };
    expect(columnsOf(synced, 'company', 'en').filter((c) => !c.optional).at(-1)).toMatchObject({ path: 'sync.status', label: 'Senasa Sync' });
    expect(columnsOf(registry, 'company', 'en').some((c) => c.sync)).toBe(false);
  });

  it('show dates as YYYY-MM-DD and GHG numbers with exactly two decimals', () => {
    expect(formatDate('2026-03-04T10:11:12.000Z')).toBe('2026-03-04');
    expect(formatNumber(3, 2)).toBe('3.00');
    expect(formatNumber('1.005', 2)).toBe('1.00');
    expect(formatValue({ id: 'x', label: { en: 'X', es: 'X' }, type: 'number', fractionDigits: 2 }, 12.5, 'en')).toBe('12.50');
  });

  it('translate option values and join multiple values', () => {
    const state = columnsOf(registry, 'company', 'es').find((c) => c.path === 'state')!;
    expect(cellText(state, { state: 3 }, 'es')).toBe('Deshabilitado');
    const phones = columnsOf(registry, 'company', 'en').find((c) => c.path === 'phone_number')!;
    expect(cellText(phones, { phone_number: ['1', '2'] }, 'en')).toBe('1, 2');
    const city = columnsOf(registry, 'company', 'en').find((c) => c.path === 'address.city')!;
    expect(cellText(city, { address: { city: 'Rosario' } }, 'en')).toBe('Rosario');
  });
});

it('offer every other field, extensions included and secrets excluded, as optional columns', () => {
  const optional = columnsOf(registry, 'company', 'en').filter((c) => c.optional).map((c) => c.path);
  expect(optional).toEqual(expect.arrayContaining(['prefix', 'address.location.lat', 'extensions.companyInfo.cuit', 'extensions.companyGhg.scope3']));
  expect(columnsOf(registry, 'user', 'en').some((c) => c.path === 'password_hash')).toBe(false);
});

describe('list state', () => {
  it('turns the table state into the API query: 1-based pages of 20, sort and state', () => {
    expect(listQueryOf({ q: 'acm', pageIndex: 2, sorting: [{ id: 'company_name', desc: true }, { id: 'email', desc: false }], filter: 'disabled' }))
      .toEqual({ q: 'acm', page: 3, pageSize: 20, sort: '-company_name,email', state: 3 });
    expect(sortParam([])).toBeUndefined();
    expect(listQueryOf({ q: '', pageIndex: 0, sorting: [], filter: 'all' }).state).toBeUndefined();
  });

  it('does not send a search shorter than two characters', () => {
    expect(listParams({ q: 'a', page: 1, pageSize: 20 })).toBe('?pageSize=20');
    expect(listParams({ q: ' ac ', state: 1, columns: ['a', 'b'] })).toBe('?q=ac&state=1&columns=a%2Cb');
  });

  it('asks for the titles of referenced records when the list shows them', () => {
    expect(listParams({ page: 2, titles: true })).toBe('?page=2&titles=true');
    expect(listParams({ page: 2 })).toBe('?page=2');
  });

  it('shows a reference column by the referenced records\' titles, in the real user list', () => {
    const groups = columnsOf(registry, 'user', 'en').find((c) => c.path === 'groups')!;
    expect(cellText(groups, { groups: ['g1', 'g2'] }, 'en', { group: { g1: 'North Hub', g2: 'South Hub' } })).toBe('North Hub, South Hub');
    expect(cellText(groups, { groups: ['g1'] }, 'en')).toBe('g1');
  });
});

describe('pickers', () => {
  const settings = registry.deployment.settings;
  it('search after 3 characters, 2 for the global autocomplete, unless the field says otherwise', () => {
    expect(pickerMinChars('picker', settings)).toBe(3);
    expect(pickerMinChars('autocomplete', settings)).toBe(2);
    expect(pickerMinChars('picker', settings, 1)).toBe(1);
    expect(settings.picker).toMatchObject({ pageSize: 20, debounceMs: 500 });
  });
});

describe('uploads', () => {
  it('refuse a non-PDF for a PDF-only field and a file over the limit', () => {
    expect(checkFile({ name: 'a.png', type: 'image/png', size: 10 }, ['application/pdf'])?.code).toBe('type');
    expect(checkFile({ name: 'a.pdf', type: 'application/pdf', size: 10 }, ['application/pdf'])).toBeNull();
    expect(checkFile({ name: 'a.pdf', type: 'application/pdf', size: 11 }, ['application/pdf'], 10)?.code).toBe('size');
  });
});

describe('entity actions', () => {
  it('offer invite and reset password for records that sign in, from the definition alone', () => {
    expect(entityActions(registry.entities.user)).toEqual({ invite: true, resetPassword: true });
    expect(entityActions(registry.entities.group)).toEqual({ invite: false, resetPassword: false });
  });
});

import { describe, expect, it } from 'vitest';
import { compileForm, validateFields, type FormatResult } from './format';
import { formOf } from '../registry/registry';
import { loadRegistry } from '../registry/load';
import { fixtureRegistry, fixtureSources } from '../testing/fixtures';

const reg = fixtureRegistry();
const company = compileForm(formOf(reg, 'company')!);
const material = compileForm(formOf(reg, 'material')!);
const errors = (r: FormatResult) => r.messages.filter((m) => m.severity === 'error').map((m) => m.message);
/** The company info extension is enabled with a required field: every valid company carries it. */
const info = { extensions: { companyInfo: { cuit: '30-50000007-1' } } };
const validMaterial = { name: 'Glyphosate', inputs: [{ material: 'm1', quantity: 1 }] };

describe('generic format validation (SPEC 5)', () => {
  it('treats a plain string as a reference, with the warning word for word', () => {
    const r = company('C-001');
    expect(r).toMatchObject({ success: true, isReference: true });
    expect(r.messages).toEqual([expect.objectContaining({
      severity: 'warn', message: 'The company value is a string. It will be processed as a reference.',
    })]);
  });

  it.each([[undefined], [null], ['']])('reports a required field given %j as mandatory', (empty) => {
    const r = company({ ...info, company_name: empty, state: 1 });
    expect(r.success).toBe(false);
    expect(errors(r)).toEqual(['Company name : A value is mandatory.']);
    expect(r.messages[0].field).toBe('company_name');
  });

  it('reports a required multiple object field with no entries as mandatory', () => {
    expect(errors(material({ name: 'x', inputs: [] }))).toEqual(['Inputs : A value is mandatory.']);
  });

  it('skips the mandatory check of fields optional on import only when importing', () => {
    const row = { name: 'x', inputs: [{ material: 'm1' }] };
    expect(errors(material(row))).toEqual(['Quantity : A value is mandatory.']);
    expect(material(row, { mode: 'import' }).success).toBe(true);
  });

  it('accepts multiple fields as an array or as a comma-separated string, split and trimmed', () => {
    expect(company({ ...info, company_name: 'A', state: 1, phone_number: ' 111 , 222,, 333 ' }).value)
      .toMatchObject({ phone_number: ['111', '222', '333'] });
    expect(company({ ...info, company_name: 'A', state: 1, phone_number: ['111', '222'] }).value)
      .toMatchObject({ phone_number: ['111', '222'] });
  });

  it.each([[true], [[1, 2]]])('refuses a reference given %j as an invalid reference', (bad) => {
    expect(errors(company({ ...info, company_name: 'A', state: 1, parent_company_id: bad })))
      .toEqual(['Parent company : Invalid company reference.']);
  });

  it.each([['C-2'], [42], [{ id: 'C-2' }]])('accepts a reference given as %j', (ref) => {
    expect(company({ ...info, company_name: 'A', state: 1, parent_company_id: ref }).success).toBe(true);
  });

  it.each([
    [{ name: 'x', inputs: validMaterial.inputs, quantity: 'many' }, 'Quantity : many must be a number, string provided'],
    [{ name: 'x', inputs: validMaterial.inputs, is_traceable: 'yes' }, 'Traceable : yes must be a boolean, string provided'],
    [{ name: { a: 1 }, inputs: validMaterial.inputs }, 'Name : {"a":1} must be a string, object provided'],
    [{ name: 'x', inputs: validMaterial.inputs, made_on: 20240101 }, 'Made on : 20240101 must be a date, number provided'],
    [{ name: 12, inputs: validMaterial.inputs }, 'Name : 12 must be a string, number provided'],
  ])('reports a value of another type word for word: %j', (value, message) => {
    expect(errors(material(value))).toEqual([message]);
  });

  it('exempts numeric strings that parse as numbers, and stores the number', () => {
    const r = material({ ...validMaterial, quantity: ' 12.5 ' });
    expect(r.success).toBe(true);
    expect(r.value).toMatchObject({ quantity: 12.5 });
  });

  it('reports a value that does not match the pattern word for word', () => {
    expect(errors(company({ ...info, company_name: 'A', state: 1, email: 'not-an-email' })))
      .toEqual(['Email : not-an-email does not match the required format']);
  });

  it('validates option values by their text, storing the declared value', () => {
    expect(company({ ...info, company_name: 'A', state: '3' }).value).toMatchObject({ state: 3 });
    expect(errors(company({ ...info, company_name: 'A', state: 2 }))).toEqual(['State : 2 is not one of the allowed values']);
  });

  it('validates enabled extensions stored with the base record', () => {
    const r = company({ company_name: 'A', state: 1, extensions: { companyInfo: { erp_id: 7 } } });
    expect(errors(r)).toEqual(['ERP id : 7 must be a string, number provided', 'CUIT : A value is mandatory.']);
    expect(r.messages[1].field).toBe('extensions.companyInfo.cuit');
  });

  it('requires an enabled extension with required fields when the record leaves it out (SPEC 3.3)', () => {
    const r = company({ company_name: 'A', state: 1 });
    expect(r.success).toBe(false);
    expect(errors(r)).toEqual(['CUIT : A value is mandatory.']);
    expect(r.messages[0].field).toBe('extensions.companyInfo.cuit');
    // CUIT is optional on import: the same rule, the import's exemption.
    expect(company({ company_name: 'A', state: 1 }, { mode: 'import' }).success).toBe(true);
  });

  it('lets a record go without an extension the deployment declares optional', () => {
    const sources = fixtureSources();
    const dep = sources.find((s) => s.path === 'schemas/deployment.json')!;
    const { registry } = loadRegistry(fixtureSources({
      'schemas/deployment.json': { ...JSON.parse(dep.text), optionalExtensions: { company: ['companyInfo'] } },
    }));
    const lenient = compileForm(formOf(registry!, 'company')!);
    expect(lenient({ company_name: 'A', state: 1 }).success).toBe(true);
    // Given, its required fields are still checked.
    expect(errors(lenient({ company_name: 'A', state: 1, extensions: { companyInfo: { erp_id: 'E1' } } }))).toEqual(['CUIT : A value is mandatory.']);
  });

  it('refuses an optional extension the deployment does not enable', () => {
    const dep = fixtureSources().find((s) => s.path === 'schemas/deployment.json')!;
    const { problems } = loadRegistry(fixtureSources({
      'schemas/deployment.json': { ...JSON.parse(dep.text), optionalExtensions: { material: ['companyInfo'] } },
    }));
    expect(problems.map((p) => p.message)).toEqual(['extension "companyInfo" is not enabled for "material"']);
  });

  it('holds success, whether it was a reference, and messages with severity and primary key', () => {
    const r = company({ ...info, id: 'C-9', company_name: '', state: 1 });
    expect(r).toMatchObject({ success: false, isReference: false, primaryKey: 'C-9' });
    expect(r.messages[0]).toMatchObject({ severity: 'error', primaryKey: 'C-9', code: 'FORMAT_MANDATORY' });
  });

  it('drops unknown fields with a warning and keeps the record valid', () => {
    const r = company({ ...info, company_name: 'A', state: 1, colour: 'red' });
    expect(r.success).toBe(true);
    expect(r.value).not.toHaveProperty('colour');
    expect(r.messages[0]).toMatchObject({ severity: 'warn', field: 'colour' });
  });

  it('labels messages in the requested language', () => {
    expect(errors(company({ ...info, state: 1 }, { lang: 'es' }))).toEqual(['Company name (es) : A value is mandatory.']);
  });

  it('refuses an impossible date', () => {
    expect(errors(material({ ...validMaterial, made_on: '2023-02-30' }))).toEqual(['Made on : 2023-02-30 does not match the required format']);
  });
});

describe('form helpers', () => {
  it.each([[{}, 'object'], ['x', 'string'], [null, 'null'], [undefined, 'undefined']])('fail when given %j instead of an array', (bad, type) => {
    expect(() => validateFields(bad, {})).toThrow(`Invalid form. Array expected, ${type} provided`);
  });

  it('validate a value against a bare field list', () => {
    const r = validateFields([{ id: 'a', label: { en: 'A', es: 'A' }, type: 'number', required: true }], {});
    expect(errors(r)).toEqual(['A : A value is mandatory.']);
  });
});

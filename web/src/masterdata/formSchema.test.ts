import { describe, expect, it } from 'vitest';
import { requireDefinitions } from '../../../definitions/read';
import { buildForm, pruneEmpty, routeWidgets, toErrorSchema, visibleMessages } from './formSchema';
import { FIELD_WIDGETS, isRegisteredWidget, LAYOUT_WIDGETS, LINE_LIST_FIELDS } from './widgets/keys';

const LINE_LISTS = new Set(Object.values(LINE_LIST_FIELDS));

const registry = requireDefinitions(process.cwd());
type Node = Record<string, unknown>;

function walkUi(ui: Node, visit: (n: Node) => void): void {
  visit(ui);
  for (const [k, v] of Object.entries(ui)) if (!k.startsWith('ui:') && v && typeof v === 'object' && !Array.isArray(v)) walkUi(v as Node, visit);
}

describe('generated forms', () => {
  it('builds a create and an edit form for every entity of schemas/', () => {
    for (const name of Object.keys(registry.entities)) {
      for (const purpose of ['create', 'edit'] as const) {
        const f = buildForm(registry, name, 'en', purpose);
        expect(f, name).toBeDefined();
        expect((f!.schema.properties as Node)).toBeTypeOf('object');
      }
    }
  });

  it('mounts every widget key of the definitions on a registered component or the explicit fallback', () => {
    for (const name of Object.keys(registry.entities)) {
      walkUi(buildForm(registry, name, 'en', 'create')!.uiSchema, (n) => {
        if (typeof n['ui:field'] === 'string') expect(FIELD_WIDGETS.has(n['ui:field'] as string) || LINE_LISTS.has(n['ui:field'] as string)).toBe(true);
        if (typeof n['ui:widget'] === 'string' && n['ui:widget'] !== 'hidden') expect(isRegisteredWidget(n['ui:widget'] as string) || n['ui:widget'] === 'fallback').toBe(true);
      });
    }
  });

  it('sends an unknown widget key to the fallback rather than a silent default', () => {
    const ui = routeWidgets({ type: 'object', properties: { a: { type: 'string' } } }, { a: { 'ui:options': { widget: 'sparkles' } } });
    expect((ui.a as Node)['ui:widget']).toBe('fallback');
  });

  it('keeps object layouts (address, list) for RJSF and carries a multiple reference widget to its items', () => {
    const company = buildForm(registry, 'company', 'en', 'create')!.uiSchema;
    expect((company.address as Node)['ui:field']).toBeUndefined();
    expect(((company.address as Node).location as Node)['ui:field']).toBe('location');
    expect((company.parent_company_id as Node)['ui:field']).toBe('picker');
    const group = buildForm(registry, 'group', 'en', 'create')!.uiSchema;
    expect(((group.warehouses as Node).items as Node)['ui:field']).toBe('picker');
  });

  it('makes cuit read-only on edit only, and lets the extensions appear as sections', () => {
    const cuitUi = (purpose: 'create' | 'edit') =>
      (((buildForm(registry, 'company', 'en', purpose)!.uiSchema.extensions as Node).companyInfo as Node).cuit as Node)['ui:readonly'];
    expect(cuitUi('create')).toBeUndefined();
    expect(cuitUi('edit')).toBe(true);
    const ext = (buildForm(registry, 'company', 'es', 'create')!.schema.properties as Node).extensions as Node;
    expect(Object.keys(ext.properties as Node)).toContain('companyEsg');
  });

  it('validates with the engine: the specification message for a bad e-mail, word for word', () => {
    const f = buildForm(registry, 'company', 'en', 'create')!;
    const msgs = visibleMessages(f.validate({ company_name: 'Acme', email: 'not-an-email' }), false);
    expect(msgs).toContainEqual({ field: 'email', message: 'E-mail : not-an-email does not match the required format' });
  });

  it('holds the mandatory messages back until the first save', () => {
    const f = buildForm(registry, 'company', 'en', 'create')!;
    const r = f.validate(pruneEmpty({ company_name: '' }));
    expect(visibleMessages(r, false).some((m) => m.message.includes('A value is mandatory'))).toBe(false);
    expect(visibleMessages(r, true)).toContainEqual({ field: 'company_name', message: 'Company name : A value is mandatory.' });
  });
});

describe('the record pipeline in the browser (the server\'s, word for word)', () => {
  const info = { cuit: '30-71234567-1', company_type: 'distributor', state: 1 };

  it('asks for the required fields of an enabled extension the record leaves out', () => {
    const f = buildForm(registry, 'company', 'en', 'create')!;
    const r = f.validate({ company_name: 'Acme' });
    expect(r.success).toBe(false);
    expect(visibleMessages(r, true)).toContainEqual({ field: 'extensions.companyInfo.company_type', message: 'Company type : A value is mandatory.' });
    // State is filled by its default on create, as the server does.
    expect(f.validate({ company_name: 'Acme', extensions: { companyInfo: info } }).success).toBe(true);
  });

  it('refuses a change to a field not editable after creation when editing', () => {
    const stored = { id: 'C1', company_name: 'Acme', state: 1, extensions: { companyInfo: info } };
    const f = buildForm(registry, 'company', 'en', 'edit')!;
    const r = f.validate({ ...stored, extensions: { companyInfo: { ...info, cuit: '30-99999999-9' } } }, stored);
    expect(visibleMessages(r, true)).toEqual([{ field: 'extensions.companyInfo.cuit', message: 'CUIT : cannot be changed after creation' }]);
  });
});

it('leaves secret fields out of the form', () => {
  expect(Object.keys(buildForm(registry, 'user', 'en', 'create')!.schema.properties as Node)).not.toContain('password_hash');
});

describe('toErrorSchema', () => {
  it('puts each message under its dotted path, array indexes included', () => {
    expect(toErrorSchema([
      { field: 'email', message: 'a' },
      { field: 'extensions.companyInfo.cuit', message: 'b' },
      { field: 'input_materials.0.quantity', message: 'c' },
      { message: 'top' },
    ])).toEqual({
      __errors: ['top'],
      email: { __errors: ['a'] },
      extensions: { companyInfo: { cuit: { __errors: ['b'] } } },
      input_materials: { 0: { quantity: { __errors: ['c'] } } },
    });
  });
});

describe('pruneEmpty', () => {
  it('drops empty strings and emptied objects and keeps falsy values that mean something', () => {
    expect(pruneEmpty({ a: '', b: { c: '' }, d: 0, e: false, f: ['x', ''] })).toEqual({ d: 0, e: false, f: ['x'] });
  });
});

it('every layout key stays out of the component registry', () => {
  for (const k of LAYOUT_WIDGETS) expect(isRegisteredWidget(k)).toBe(false);
});

import { describe, expect, it } from 'vitest';
import common from '../../../schemas/meta/common.schema.json';
import type { FieldDef, FieldType } from '../types';
import { FIELD_TYPES, INVALID, WIDGET_KEYS, defaultWidget, type FieldTypeSpec } from './types';
import { validateFields } from '../validate/format';
import { fixtureRegistry } from '../testing/fixtures';

const TYPES: FieldType[] = ['string', 'number', 'integer', 'boolean', 'date', 'datetime', 'object', 'reference', 'file'];

/** Every member of a row; the assertion below fails to compile when FieldTypeSpec gains one not listed here. */
const MEMBERS = ['schema', 'widget', 'check', 'parse', 'cell', 'example'] as const;
const allMembersListed: [Exclude<keyof FieldTypeSpec, (typeof MEMBERS)[number]>] extends [never] ? true : false = true;

const field = (type: FieldType, more: Partial<FieldDef> = {}): FieldDef => ({ id: 'x', label: { en: 'X', es: 'X' }, type, ...more } as FieldDef);

describe('the field type table', () => {
  it('names exactly the widget keys the meta-schema accepts', () => {
    const widget = (common as { definitions: { field: { properties: { widget: { enum: string[] } } } } }).definitions.field.properties.widget;
    expect([...widget.enum].sort()).toEqual([...WIDGET_KEYS].sort());
  });

  it('gives every field type a default widget from that list', () => {
    expect(Object.keys(FIELD_TYPES).sort()).toEqual([...TYPES].sort());
    for (const type of TYPES) {
      for (const multiple of [false, true]) {
        expect(WIDGET_KEYS).toContain(defaultWidget({ id: 'x', label: { en: 'X', es: 'X' }, type, multiple } as FieldDef));
      }
    }
  });

  it('is applied by the registry: every field of every entity carries its widget', () => {
    const reg = fixtureRegistry();
    const walk = (fields: readonly FieldDef[]): void => fields.forEach((f) => { expect(WIDGET_KEYS, f.id).toContain(f.widget); if (f.fields) walk(f.fields); });
    for (const def of Object.values(reg.entities)) walk(def.fields);
    expect(reg.entities.company.fields.find((f) => f.id === 'state')?.widget).toBe('select');
    expect(reg.entities.company.access).toBe('Master Data');
    expect(reg.entities.material.listColumns).toEqual(['name', 'is_traceable', 'quantity', 'made_on']);
  });

  it('has a row with every member for each type the meta-schema accepts', () => {
    const types = (common as { definitions: { field: { properties: { type: { enum: string[] } } } } }).definitions.field.properties.type.enum;
    expect(allMembersListed).toBe(true);
    expect(Object.keys(FIELD_TYPES).sort()).toEqual([...types].sort());
    for (const type of types) {
      const row = FIELD_TYPES[type as FieldType] as unknown as Record<string, unknown>;
      for (const m of MEMBERS) expect(typeof row[m], `${type}.${m}`).toBe('function');
    }
  });

  it('reads a CSV cell as a value of each type', () => {
    const parse = (type: FieldType, text: string, more?: Partial<FieldDef>) => FIELD_TYPES[type].parse(field(type, more), text);
    expect(parse('string', ' 007 ')).toBe(' 007 ');
    expect(parse('number', ' 12.5 ')).toBe(12.5);
    expect(parse('integer', '7')).toBe(7);
    expect(parse('number', 'twelve')).toBe(INVALID);
    expect(parse('number', '  ')).toBe(INVALID);
    expect(parse('boolean', 'Sí')).toBe(true);
    expect(parse('boolean', 'no')).toBe(false);
    expect(parse('boolean', 'maybe')).toBe(INVALID);
    expect(parse('date', '2025-03-31T14:30:00Z')).toBe('2025-03-31');
    expect(parse('date', '2025-02-30')).toBe(INVALID);
    expect(parse('datetime', '2025-03-31T14:30:00Z')).toBe('2025-03-31T14:30:00Z');
    expect(parse('reference', 'ACME')).toBe('ACME');
    expect(parse('object', '{"a":1}', { multiple: true, fields: [] })).toEqual([{ a: 1 }]);
    expect(parse('object', '[{"a":1},{"a":2}]', { multiple: true, fields: [] })).toEqual([{ a: 1 }, { a: 2 }]);
    expect(parse('object', '[1]', { multiple: true, fields: [] })).toBe(INVALID);
    expect(parse('object', '{', { multiple: true, fields: [] })).toBe(INVALID);
  });

  it('checks each type through its row: type errors are reported, not coerced (SPEC 5)', () => {
    const check = (type: FieldType, value: unknown, mode: 'form' | 'import' = 'form', more?: Partial<FieldDef>) =>
      validateFields([field(type, more)], { x: value }, { mode });
    expect(check('string', 12).messages.map((m) => m.message)).toEqual(['X : 12 must be a string, number provided']);
    expect(check('number', '12.5').value).toEqual({ x: 12.5 });
    expect(check('integer', '1.5').messages[0].code).toBe('FORMAT_WRONG_TYPE');
    expect(check('boolean', 'yes').success).toBe(false);
    expect(check('boolean', 'yes', 'import').value).toEqual({ x: true });
    expect(check('date', '2025-03-31T10:00:00Z').value).toEqual({ x: '2025-03-31' });
    expect(check('file', 12).value).toEqual({ x: 12 });
    expect(check('number', 5, 'form', { min: 10 }).messages[0].code).toBe('FORMAT_TOO_SMALL');
    expect(check('string', 'b', 'form', { pattern: '^a' }).messages[0].code).toBe('FORMAT_PATTERN');
    expect(check('object', 'text', 'form', { fields: [field('string')] }).messages[0].message).toBe('X : text must be a object, string provided');
  });
});

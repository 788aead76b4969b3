import { describe, expect, it } from 'vitest';
import common from '../../../schemas/meta/common.schema.json';
import type { FieldDef, FieldType } from '../types';
import { FIELD_TYPES, WIDGET_KEYS, defaultWidget } from './types';
import { fixtureRegistry } from '../testing/fixtures';

const TYPES: FieldType[] = ['string', 'number', 'integer', 'boolean', 'date', 'datetime', 'object', 'reference', 'file'];

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
});

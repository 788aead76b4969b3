import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileForm, ERRORS, formatProblem, formOf, toJsonSchema, toUiSchema, collectionSpec, type FormatResult,
} from '../../../engine/src/index';
import { loadDefinitions } from '../../../definitions/read';

const { registry, problems } = loadDefinitions(process.cwd());

const CODES = new Set(Object.keys(ERRORS));

/** A plain predicate (not expect) so 10,000 runs per entity stay fast; fast-check reports the value. */
function wellFormed(r: FormatResult): boolean {
  if (typeof r.success !== 'boolean' || typeof r.isReference !== 'boolean' || !Array.isArray(r.messages)) return false;
  let hasError = false;
  for (const m of r.messages) {
    if (m.severity !== 'error' && m.severity !== 'warn') return false;
    if (!CODES.has(m.code) || typeof m.message !== 'string' || m.message.length === 0) return false;
    if (m.severity === 'error') hasError = true;
  }
  return r.success === !hasError;
}

describe('the definitions in schemas/ and reports/', () => {
  it('load with no problems', () => {
    expect(problems.map(formatProblem)).toEqual([]);
  });

  const entities = Object.keys(registry?.entities ?? {});

  it.each(entities)('%s: 10,000 random JSON values never make the validator throw', (name) => {
    const validate = compileForm(formOf(registry!, name)!);
    fc.assert(fc.property(fc.jsonValue(), fc.constantFrom('form', 'import') as fc.Arbitrary<'form' | 'import'>, (value, mode) => {
      return wellFormed(validate(value, { mode }));
    }), { numRuns: 10_000 });
  });

  it.each(entities)('%s: records of random values under its own field ids never make the validator throw', (name) => {
    const form = formOf(registry!, name)!;
    const validate = compileForm(form);
    const ids = form.fields.map((f) => f.id);
    const record = fc.dictionary(fc.constantFrom(...ids), fc.oneof(fc.jsonValue(), fc.string(), fc.array(fc.jsonValue())), { maxKeys: ids.length });
    fc.assert(fc.property(record, (value) => wellFormed(validate(value))), { numRuns: 2_000 });
  });

  it.each(entities)('%s: its JSON Schema compiles with ajv and its uiSchema names a widget for every field', (name) => {
    const form = formOf(registry!, name)!;
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    expect(() => ajv.compile(toJsonSchema(form))).not.toThrow();
    const ui = toUiSchema(form);
    for (const f of form.fields) expect((ui[f.id] as { 'ui:options': { widget: string } })['ui:options'].widget).toBeTruthy();
    expect(collectionSpec(registry!, name).name).toBe(name);
  });

  /** Every unit a form shows beside a value, in a language. */
  const unitsIn = (lang: 'en' | 'es' | 'fr') => entities.flatMap((name) => {
    const found: unknown[] = [];
    const walk = (ui: unknown): void => {
      if (!ui || typeof ui !== 'object') return;
      const unit = (ui as { 'ui:options'?: { unit?: unknown } })['ui:options']?.unit;
      if (unit !== undefined) found.push(unit);
      for (const v of Object.values(ui)) walk(v);
    };
    walk(toUiSchema(formOf(registry!, name)!, { lang }));
    return found;
  });

  it('shows units in the language of the form, as text', () => {
    const en = unitsIn('en');
    expect(en).toEqual(expect.arrayContaining(['units/day', '$/unit', 'days', 'units']));
    expect(unitsIn('es')).toEqual(expect.arrayContaining(['unidades/día', '$/unidad', 'días', 'unidades']));
    expect(unitsIn('fr')).toEqual(expect.arrayContaining(['unités/jour', '$/unité', 'jours', 'unités']));
    for (const lang of ['es', 'fr'] as const) {
      const units = unitsIn(lang);
      expect(units.every((u) => typeof u === 'string'), lang).toBe(true);
      expect(units.filter((u) => ['units/day', '$/unit', 'days', 'units', 'kg CO2e per product unit'].includes(u as string)), lang).toEqual([]);
    }
  });
});

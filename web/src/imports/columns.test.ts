import { describe, expect, it } from 'vitest';
import { formOf } from '../../../engine/src/index';
import { requireDefinitions } from '../../../definitions/read';
import { columnMapping, fieldLabel, fieldOfPath, labelChain } from './columns';

const registry = requireDefinitions(process.cwd());
const material = formOf(registry, 'material')!.fields;
const A = 'extensions.agrochemicalMaterial';

describe('import column mapping', () => {
  it('names a path by its labels as the template does, without the extensions wrapper', () => {
    expect(labelChain(material, 'name', 'en')).toBe('Name');
    expect(labelChain(material, `${A}.erp_id`, 'en')).toBe('Agrochemical product > ERP ID');
    expect(labelChain(material, `${A}.erp_id`, 'es')).toBe('Producto agroquímico > ID de ERP');
    expect(labelChain(material, `${A}.active_ingredients.1.concentration`, 'en')).toBe('Agrochemical product > Active ingredients 1 > Concentration');
    expect(labelChain(material, 'colour', 'en')).toBe('colour');
  });

  it('finds the field of a message path, list rows counted from 0 and shown from 1', () => {
    expect(fieldOfPath(material, `${A}.active_ingredients.0.concentration`)?.id).toBe('concentration');
    expect(fieldLabel(material, `${A}.active_ingredients.0.concentration`, 'en')).toBe('Agrochemical product > Active ingredients 1 > Concentration');
    expect(fieldLabel(material, 'nope.x', 'en')).toBe('');
  });

  it('reads the mapped, unknown and ignored columns of a job', () => {
    const mapping = columnMapping({
      columns: [{ header: 'Name', path: 'name' }, { header: `${A}.erp_id`, path: `${A}.erp_id` }],
      unknownColumns: ['Colour', 'Size'],
      ignoredColumns: ['id'],
    }, material, 'en');
    expect(mapping.mapped).toEqual([
      { header: 'Name', path: 'name', label: 'Name' },
      { header: `${A}.erp_id`, path: `${A}.erp_id`, label: 'Agrochemical product > ERP ID' },
    ]);
    expect(mapping.unknown).toEqual(['Colour', 'Size']);
    expect(mapping.ignored).toEqual(['id']);
    expect(columnMapping({}, material, 'en')).toEqual({ mapped: [], unknown: [], ignored: [] });
  });
});

import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { requireDefinitions } from '../../../definitions/read';
import { columnCatalogue } from './columns';
import { templateCsv } from './template';

const registry = requireDefinitions(process.cwd());

/** AFIP's check digit: weights 5432765432 over the first ten digits, 11 minus the sum mod 11. */
function cuitIsValid(cuit: string): boolean {
  const d = cuit.replace(/-/g, '');
  if (!/^\d{11}$/.test(d)) return false;
  const sum = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2].reduce((s, w, i) => s + w * Number(d[i]), 0);
  const check = 11 - (sum % 11);
  return (check === 11 ? 0 : check) === Number(d[10]);
}

function exampleRow(entity: string): Record<string, string> {
  const [header, row] = Papa.parse<string[]>(templateCsv(registry, entity).replace(/^\ufeff/, ''), { skipEmptyLines: true }).data;
  return Object.fromEntries(header.map((h, i) => [h, row[i]]));
}

describe('the CSV template example row', () => {
  it('shows a CUIT with a correct check digit for companies', () => {
    const cuit = exampleRow('company')['extensions.companyInfo.cuit'];
    expect(cuitIsValid(cuit)).toBe(true);
  });

  it('meets the pattern of every patterned column of every importable entity', () => {
    for (const entity of ['company', 'material']) {
      const row = exampleRow(entity);
      for (const slot of columnCatalogue(registry, entity).slots) {
        if (slot.kind !== 'value' || !slot.field.pattern) continue;
        expect(row[slot.path], `${entity} ${slot.path}`).toMatch(new RegExp(slot.field.pattern));
      }
    }
  });
});

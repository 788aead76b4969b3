import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formOf, interpolate } from '../../../engine/src/index';
import { requireDefinitions } from '../../../definitions/read';
import { messageText, type Translate } from './messages';
import { ApiRequestError } from '../api/errors';
import { errorText } from '../api/errorText';
import type { TFunction } from 'i18next';

const registry = requireDefinitions(process.cwd());
const material = formOf(registry, 'material')!.fields;
const es = JSON.parse(readFileSync('schemas/i18n/es.json', 'utf8')) as Record<string, string>;
const t: Translate = (key, o) => (es[key] ? interpolate(es[key], o) : String(o.defaultValue));

const mandatory = { code: 'FORMAT_MANDATORY', message: 'ERP ID : A value is mandatory.', params: { label: 'ERP ID' }, field: 'extensions.agrochemicalMaterial.erp_id' };

describe('import messages', () => {
  it('shows English word for word as the server wrote it', () => {
    expect(messageText(mandatory, 'en', t, material)).toBe('ERP ID : A value is mandatory.');
  });

  it('translates by code with the values, the field label in the language', () => {
    expect(messageText(mandatory, 'es', t, material)).toBe('ID de ERP : Un valor es obligatorio.');
    const duplicate = { code: 'IMPORT_DUPLICATE_IN_FILE', message: 'ERP ID : M1 is already used in row 3 of this file', params: { label: 'ERP ID', value: 'M1', row: 3 }, field: 'extensions.agrochemicalMaterial.erp_id' };
    expect(messageText(duplicate, 'es', t, material)).toBe(interpolate(es['import.row.duplicateInFile'], { label: 'ID de ERP', value: 'M1', row: 3 }));
  });

  it('keeps the server text when it cannot translate it faithfully', () => {
    expect(messageText({ code: 'SOMETHING_NEW', message: 'as written' }, 'es', t)).toBe('as written');
    expect(messageText({ code: 'FORMAT_MANDATORY', message: 'X : A value is mandatory.' }, 'es', t)).toBe('X : A value is mandatory.');
    // A label that is not the field's own (a custom one) stays as the server wrote it.
    expect(messageText({ ...mandatory, params: { label: 'Custom' } }, 'es', t, material)).toBe('Custom : Un valor es obligatorio.');
  });

  it('says a refused request in the language with the values the server sent, else as the server wrote it', () => {
    const tf = t as unknown as TFunction;
    const refused = new ApiRequestError(400, 'IMPORT_MISSING_COLUMNS', 'Required columns are missing: ERP ID (erp_id)', [], { columns: 'ERP ID (erp_id)' });
    expect(errorText(refused, tf)).toBe(interpolate(es['import.error.missingColumns'], { columns: 'ERP ID (erp_id)' }));
    expect(errorText(new ApiRequestError(400, 'IMPORT_MISSING_COLUMNS', 'as written'), tf)).toBe('as written');
    expect(errorText(new ApiRequestError(400, 'NOT_IN_THE_CATALOGUE', 'as written', [], { x: 1 }), tf)).toBe('as written');
  });
});

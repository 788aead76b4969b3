import { describe, expect, it } from 'vitest';
import { IMPORT_QUERY_ENTITIES, validateQuery } from './queries';

describe('deep-link query validation (SPEC 5)', () => {
  it('requires the epc reference to be a string', () => {
    expect(validateQuery('epc', { epc: 'urn:epc:id:sgtin:1.2.3' }).valid).toBe(true);
    expect(validateQuery('epc', { epc: 5 })).toEqual({ valid: false, code: 'EPC_NOT_STRING', message: 'The epc reference must be a string' });
  });

  it.each(IMPORT_QUERY_ENTITIES.map((e) => [e]))('accepts an import query for %s', (entity) => {
    expect(validateQuery('import', { entity }).valid).toBe(true);
  });

  it('refuses an import query for another entity with the message of the specification', () => {
    expect(validateQuery('import', { entity: 'lot' }).message).toBe('The lot identifier must be a string');
    expect(validateQuery('import', null).valid).toBe(false);
  });

  it('lets types without a validator through', () => {
    expect(validateQuery('company', { anything: 1 }).valid).toBe(true);
  });
});

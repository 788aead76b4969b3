import { describe, expect, it } from 'vitest';
import { importableEntities, validateQuery } from './queries';
import { fixtureRegistry, fixtureSources } from '../testing/fixtures';
import { loadRegistry } from '../registry/load';

const reg = fixtureRegistry();
const t = (en: string) => ({ en, es: en, fr: en });

describe('deep-link query validation (SPEC 5)', () => {
  it('requires the epc reference to be a string', () => {
    expect(validateQuery('epc', { epc: 'urn:epc:id:sgtin:1.2.3' }, reg).valid).toBe(true);
    expect(validateQuery('epc', { epc: 5 }, reg)).toEqual({ valid: false, code: 'EPC_NOT_STRING', message: 'The epc reference must be a string' });
  });

  it.each(importableEntities(reg).map((e) => [e]))('accepts an import query for %s', (entity) => {
    expect(validateQuery('import', { entity }, reg).valid).toBe(true);
  });

  it('refuses an import query for another entity with the message of the specification', () => {
    expect(validateQuery('import', { entity: 'lot' }, reg).message).toBe('The lot identifier must be a string');
    expect(validateQuery('import', { entity: 'toString' }, reg).valid).toBe(false);
    expect(validateQuery('import', null, reg).valid).toBe(false);
  });

  it('lets types without a validator through', () => {
    expect(validateQuery('company', { anything: 1 }, reg).valid).toBe(true);
  });

  it('accepts an import query for an entity added by a definition alone, unless it says it is not importable', () => {
    const dock = { name: 'loading_dock', kind: 'master', label: t('Loading dock'), pluralLabel: t('Loading docks'), fields: [{ id: 'name', label: t('Name'), type: 'string' }] };
    const withDock = loadRegistry(fixtureSources({ 'schemas/entities/loading_dock.json': dock })).registry!;
    expect(validateQuery('import', { entity: 'loading_dock' }, withDock).valid).toBe(true);
    const closed = loadRegistry(fixtureSources({ 'schemas/entities/loading_dock.json': { ...dock, importable: false } })).registry!;
    expect(validateQuery('import', { entity: 'loading_dock' }, closed).valid).toBe(false);
  });
});

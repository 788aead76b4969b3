import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatProblem } from '../../../engine/src/index';
import { startHarness } from '../testing/harness';
import { copyDefinitions, loadDefinitions } from '../../../definitions/read';

const root = mkdtempSync(join(tmpdir(), 'tm-conf-'));
copyDefinitions(process.cwd(), root);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const t = (en: string, es: string, fr: string) => ({ en, es, fr });
const dock = (ref: string) => ({
  name: 'loading_dock', kind: 'master', label: t('Loading dock', 'Muelle de carga', 'Quai de chargement'), pluralLabel: t('Loading docks', 'Muelles de carga', 'Quais de chargement'), titleField: 'name',
  fields: [
    { id: 'name', label: t('Name', 'Nombre', 'Nom'), type: 'string', required: true, unique: true, searchable: true },
    { id: 'division', label: t('Deposit', 'Depósito', 'Dépôt'), type: 'reference', ref, required: true },
    { id: 'kind', label: t('Kind', 'Tipo', 'Type'), type: 'string', default: 'side', options: [{ value: 'side', label: t('Side', 'Lateral', 'Latéral') }, { value: 'rear', label: t('Rear', 'Trasero', 'Arrière') }] },
    { id: 'state', label: t('State', 'Estado', 'État'), type: 'integer', required: true, default: 1, options: [{ value: 1, label: t('Active', 'Activo', 'Actif') }, { value: 3, label: t('Disabled', 'Deshabilitado', 'Désactivé') }] },
  ],
});

describe("a configurator's new entity, written as one JSON file", () => {
  it('is caught by the check when its reference target is misspelt', () => {
    writeFileSync(join(root, 'schemas', 'entities', 'loading_dock.json'), JSON.stringify(dock('company_divison')));
    expect(loadDefinitions(root).problems.map(formatProblem)).toEqual([
      'schemas/entities/loading_dock.json:/fields/1/ref: reference target "company_divison" is not an entity (did you mean "company_division"?)',
    ]);
  });

  it('is caught by the check when a text lacks a language, with the file and the pointer', () => {
    const def = dock('company_division');
    delete (def.fields[2].options![1].label as { fr?: string }).fr;
    writeFileSync(join(root, 'schemas', 'entities', 'loading_dock.json'), JSON.stringify(def));
    expect(loadDefinitions(root).problems.map(formatProblem)).toEqual([
      'schemas/entities/loading_dock.json:/fields/2/options/1/label: missing fr (every text needs en, es, fr)',
    ]);
  });

  it('gets a working API with its enum, default and reference checked, with no code change', async () => {
    writeFileSync(join(root, 'schemas', 'entities', 'loading_dock.json'), JSON.stringify(dock('company_division')));
    const { registry, problems } = loadDefinitions(root);
    expect(problems).toEqual([]);
    const h = await startHarness({ registry: registry! });
    try {
      const headers = (await h.userWith(['Master Data'])).headers;
      const company = await h.store.insert('company', { company_name: 'Dock owner', state: 1 });
      const division = await h.store.insert('company_division', { division_name: 'Depósito Norte', division_type: 'deposit', senasa_id_type: 'depositID', erp_id: 'D1', company_id: company.id, country: 'x', state: 1 });
      const url = '/api/v3/masterdata/loading_dock';
      const made = await h.app.inject({ method: 'POST', url, headers, payload: { name: 'Dock 1', division: division.id } });
      expect(made.statusCode).toBe(201);
      expect(made.json()).toMatchObject({ name: 'Dock 1', kind: 'side', state: 1, division: division.id });
      const badKind = await h.app.inject({ method: 'POST', url, headers, payload: { name: 'Dock 2', division: division.id, kind: 'roof' } });
      expect(badKind.json().error.details[0].message).toBe('Kind : roof is not one of the allowed values');
      const badRef = await h.app.inject({ method: 'POST', url, headers, payload: { name: 'Dock 3', division: 'nowhere' } });
      expect(badRef.json().error.details[0]).toMatchObject({ field: 'division', code: 'FORMAT_REFERENCE_NOT_FOUND' });
      const found = (await h.app.inject({ url: `${url}?q=dock`, headers })).json();
      expect(found.total).toBe(1);
      const doc = (await h.app.inject({ url: '/api/openapi.json' })).json();
      expect(doc.paths[url]).toBeDefined();
    } finally {
      await h.close();
    }
  });
});

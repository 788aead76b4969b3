/**
 * Issue 14: an entity added by the README's JSON edit alone is importable: deep link, CSV
 * template and import, with no code change.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { validateQuery, type Registry } from '../../../engine/src/index';
import { copyDefinitions, loadDefinitions } from '../../../definitions/read';
import { multipart, seedReferences, startImportHarness, type ImportHarness } from './testing/harness';

/** The loading_dock definition exactly as the README gives it. */
function readmeDock(): string {
  const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes('"name": "loading_dock"'));
  if (!block) throw new Error('README.md no longer shows loading_dock.json');
  return block;
}

const root = mkdtempSync(join(tmpdir(), 'tm-dock-'));
let registry: Registry;
let h: ImportHarness;
let importer: Record<string, string>;

beforeAll(async () => {
  copyDefinitions(process.cwd(), root);
  writeFileSync(join(root, 'schemas', 'entities', 'loading_dock.json'), readmeDock());
  // The same entity with no unique field, so with no import key: rows can only be added.
  const bay = readmeDock().replaceAll('loading_dock', 'loading_bay').replace('"unique": true, ', '');
  writeFileSync(join(root, 'schemas', 'entities', 'loading_bay.json'), bay);
  const loaded = loadDefinitions(root);
  expect(loaded.problems).toEqual([]);
  registry = loaded.registry!;
  h = await startImportHarness({ registry });
  importer = await h.userWith(['Data Import', 'Master Data']);
  await seedReferences(h.store);
});
afterAll(async () => {
  await h?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("the README's loading_dock, added by a JSON edit alone", () => {
  it('may be named by an import deep link', () => {
    expect(validateQuery('import', { entity: 'loading_dock' }, registry).valid).toBe(true);
  });

  it.each(['loading_dock', 'loading_bay'])('%s has a CSV template, and a file filled in from it imports', async (entity) => {
    const template = await h.app.inject({ url: `/api/imports/templates/${entity}.csv`, headers: importer });
    expect(template.statusCode, template.body).toBe(200);
    const [header] = Papa.parse<string[]>(template.body.replace(/^\ufeff/, ''), { skipEmptyLines: true }).data;
    expect(header).toEqual(expect.arrayContaining(['name', 'division', 'kind', 'state']));

    const cells: Record<string, string> = { name: 'Dock 1', division: 'DIV-001', kind: 'rear', state: '1' };
    const csv = `${header.join(',')}\n${header.map((c) => cells[c] ?? '').join(',')}\n`;
    const body = multipart({ entity }, { name: 'docks.csv', content: csv });
    const started = await h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...importer, ...body.headers }, payload: body.payload });
    expect(started.statusCode, started.body).toBe(202);
    await h.runner.idle();
    const job = (await h.app.inject({ url: `/api/imports/${started.json().id}`, headers: importer })).json();
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    expect(job.counts).toMatchObject({ insert: 1, reject: 0 });
    const [dock] = await h.store.find(entity, { filter: { name: 'Dock 1' } });
    const [division] = await h.store.find('company_division', { filter: { erp_id: 'DIV-001' } });
    expect(dock).toMatchObject({ name: 'Dock 1', kind: 'rear', state: 1, division: division.id });
  });
});

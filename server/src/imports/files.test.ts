import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { importableEntities } from '../../../engine/src/index';
import { Validator } from '@seriousme/openapi-schema-validator';
import { columnCatalogue, mapHeader } from './columns';
import { multipart, seedReferences, startImportHarness, type ImportHarness } from './testing/harness';

let h: ImportHarness;
let importer: Record<string, string>;
const A = 'extensions.agrochemicalMaterial';

async function run(entity: string, content: string | Buffer, fields: Record<string, string> = {}, name = 'file.csv') {
  const body = multipart({ entity, ...fields }, { name, content });
  const r = await h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...importer, ...body.headers }, payload: body.payload });
  if (r.statusCode !== 202) return r.json();
  await h.runner.idle();
  return (await h.app.inject({ url: `/api/imports/${r.json().id}?pageSize=200`, headers: importer })).json();
}

const parse = (text: string) => Papa.parse<string[]>(text.replace(/^\ufeff/, ''), { skipEmptyLines: true }).data;

beforeAll(async () => {
  h = await startImportHarness();
  importer = await h.userWith(['Data Import', 'Master Data']);
  await seedReferences(h.store);
});
afterAll(async () => { await h?.close(); });

describe('templates', () => {
  it('lists every importable column, enabled extensions and lists of rows included, with an example row', async () => {
    const r = await h.app.inject({ url: '/api/imports/templates/material.csv', headers: importer });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('text/csv');
    const [header, example] = parse(r.body);
    expect(header).toEqual(expect.arrayContaining(['name', 'state', `${A}.erp_id`, `${A}.plant_origin`, `${A}.active_ingredients.1.ai_product_id`,
      'extensions.materialInternalInfo.internal_sku', 'extensions.materialInternalInfo.alternate_materials.1.quantity']));
    expect(header).not.toContain('extensions.containerInfo.capacity'); // derived (preview)
    expect(header).not.toContain('extensions.productImage.image'); // a file
    expect(example[header.indexOf('state')]).toBe('1');
    expect(example[header.indexOf(`${A}.company_id`)]).toBe('<company extensions.companyInfo.erp_id>');
    expect(example).toHaveLength(header.length);
  });

  // The header mapping is checked directly for every header language; each entity's template
  // then goes through a whole dry run once (an import validates on a thread of its own, which
  // takes a while to start: one run per template and language was 84 of them, ~30 s).
  it('maps back every column of every template, by ids and by English, Spanish and French labels', async () => {
    for (const entity of importableEntities(h.registry)) {
      const catalogue = columnCatalogue(h.registry, entity);
      let byIds: string[] | undefined;
      for (const query of ['', '?headers=labels&lang=es', '?headers=labels&lang=fr', '?headers=labels']) {
        const t = await h.app.inject({ url: `/api/imports/templates/${entity}.csv${query}`, headers: importer });
        expect(t.statusCode, `${entity}${query}`).toBe(200);
        const [header] = parse(t.body);
        const m = mapHeader(catalogue, header);
        expect({ unknown: m.unknown, ambiguous: m.ambiguous, ignored: m.ignored, duplicates: m.duplicates, missing: m.missing }, `${entity}${query}`)
          .toEqual({ unknown: [], ambiguous: [], ignored: [], duplicates: [], missing: [] });
        expect(m.columns.map((c) => c.index), `${entity}${query}`).toEqual(header.map((_, i) => i));
        const targets = m.columns.map((c) => JSON.stringify(c.target));
        byIds ??= targets;
        expect(targets, `${entity}${query}: the same fields as the template by ids`).toEqual(byIds);
      }
    }
  });

  it('imports every template as downloaded (a dry run of each, Spanish labels)', async () => {
    for (const entity of importableEntities(h.registry)) {
      const t = await h.app.inject({ url: `/api/imports/templates/${entity}.csv?headers=labels&lang=es`, headers: importer });
      const j = await run(entity, t.body, { dryRun: 'true' });
      expect(j.status, `${entity}: ${JSON.stringify(j.error ?? j.messages)}`).toBe('succeeded');
      expect(j.messages, entity).toEqual([]);
      expect(j.columns).toHaveLength(parse(t.body)[0].length);
    }
  });

  it('answers 400 for an entity that cannot be imported', async () => {
    expect((await h.app.inject({ url: '/api/imports/templates/user.csv', headers: importer })).statusCode).toBe(400);
  });
});

describe('header mapping', () => {
  it('matches ids and English or Spanish labels case-insensitively, and reports unknown columns', async () => {
    const j = await run('material', [
      'NOMBRE,producto agroquímico > id de erp,Agrochemical Product > Company,MATERIAL TYPE,Product ID,Colour',
      'Glifosato,H1,C000001,Formulated product,P1,red',
    ].join('\n'), { dryRun: 'true' });
    expect(j.status).toBe('succeeded');
    expect(j.columns.map((c: { path: string }) => c.path)).toEqual(['name', `${A}.erp_id`, `${A}.company_id`, `${A}.material_type`, `${A}.product_id`]);
    expect(j.messages).toEqual([expect.objectContaining({ code: 'IMPORT_UNKNOWN_COLUMNS', message: 'These columns are not fields of material and were not imported: Colour' })]);
    expect(j).toMatchObject({ unknownColumns: ['Colour'], ignoredColumns: [] });
    expect(j.counts.insert).toBe(1);
  });

  it('asks for the required columns of an extension the file touches', async () => {
    const j = await run('company', 'company_name,extensions.companyInfo.erp_id\nAcme,C9\n');
    expect(j.error.code).toBe('IMPORT_MISSING_COLUMNS');
    expect(j.error.details.map((d: { field: string }) => d.field)).toEqual(['extensions.companyInfo.company_type', 'extensions.companyInfo.state']);
  });

  it('reads semicolon-separated files (Spanish Excel) and option labels', async () => {
    const j = await run('country', 'Nombre del país;descripcion de pais sap;Estado\nChile;Chile;Activo\n');
    expect(j.status, JSON.stringify(j)).toBe('succeeded');
    expect(await h.store.find('country', { filter: { sap_country_description: 'Chile' } })).toEqual([expect.objectContaining({ country_name: 'Chile', state: 1 })]);
  });
});

describe('error file and import log', () => {
  it('gives the rejected rows as uploaded plus their errors, formulas neutralised, and a fixed file imports', async () => {
    const file = [
      `name,${A}.product_id,${A}.erp_id,${A}.company_id,${A}.material_type,${A}.gtin`,
      `Good,P1,E1,C000001,formulated_product,123`,
      `=HYPERLINK("http://evil"),P2,E2,C999,formulated_product,-5`,
      `"Multi, ""line""\nname",P3,,C000001,formulated_product,@x`,
    ].join('\n');
    const j = await run('material', file, { dryRun: 'true' }, 'my file.csv');
    expect(j.counts).toMatchObject({ insert: 1, reject: 2 });
    const r = await h.app.inject({ url: `/api/imports/${j.id}/errors.csv`, headers: importer });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-disposition']).toBe('attachment; filename="my_file-errors.csv"');
    const rows = parse(r.body);
    expect(rows[0]).toEqual([`name`, `${A}.product_id`, `${A}.erp_id`, `${A}.company_id`, `${A}.material_type`, `${A}.gtin`, 'Import errors']);
    expect(rows).toHaveLength(3);
    expect(rows[1].slice(0, 6)).toEqual([`'=HYPERLINK("http://evil")`, 'P2', 'E2', 'C999', 'formulated_product', `'-5`]);
    expect(rows[1][6]).toContain(`[${A}.company_id] Company : no company with id "C999"`);
    expect(rows[2][0]).toBe('Multi, "line"\nname');
    expect(rows[2][5]).toBe(`'@x`);
    expect(rows[2][6]).toBe(`[${A}.erp_id] ERP ID : A value is mandatory.`);
    const all = parse((await h.app.inject({ url: `/api/imports/${j.id}/errors.csv?rows=all`, headers: importer })).body);
    expect(all).toHaveLength(4);
    expect(all[1][6]).toBe('');

    // Fixed in the spreadsheet and sent back, error column and apostrophes included.
    rows[1][3] = 'C000001';
    rows[2][2] = 'E3';
    const fixed = Papa.unparse(rows);
    const again = await run('material', fixed);
    expect(again.status, JSON.stringify(again.errors)).toBe('succeeded');
    expect(again.counts).toEqual({ insert: 2, update: 0, unchanged: 0, reject: 0 });
    const [e2] = await h.store.find('material', { filter: { [`${A}.erp_id`]: 'E2' } });
    expect(e2.name).toBe('=HYPERLINK("http://evil")');
    expect((e2.extensions as Record<string, Record<string, unknown>>).agrochemicalMaterial.gtin).toBe('-5');
  });

  it('lists every import with who, when, file, entity, counts and status, newest first', async () => {
    const list = (await h.app.inject({ url: '/api/imports?pageSize=200', headers: importer })).json();
    expect(list.total).toBeGreaterThan(3);
    const [newest] = list.data;
    expect(newest).toMatchObject({
      entity: 'material', fileName: 'file.csv', status: 'succeeded', dryRun: false,
      createdBy: { displayName: 'Import Tester' }, counts: { insert: 2, update: 0, unchanged: 0, reject: 0 },
      progress: { percent: 100, rowsDone: 2, rowsTotal: 2 },
    });
    expect(Date.parse(newest.createdAt)).toBeGreaterThan(Date.parse(list.data[1].createdAt) - 1);
    const failed = (await h.app.inject({ url: '/api/imports?status=failed&entity=company', headers: importer })).json();
    expect(failed.data.every((j: { status: string; entity: string }) => j.status === 'failed' && j.entity === 'company')).toBe(true);
  });

  it('answers 404 for an unknown import and 403 without the Data Import key', async () => {
    expect((await h.app.inject({ url: '/api/imports/NOPE', headers: importer })).json().error.code).toBe('IMPORT_NOT_FOUND');
    expect((await h.app.inject({ url: '/api/imports/NOPE/errors.csv', headers: importer })).statusCode).toBe(404);
    const outsider = await h.userWith(['Master Data']);
    expect((await h.app.inject({ url: '/api/imports', headers: outsider })).statusCode).toBe(403);
  });

  it('documents the routes in the OpenAPI document under Imports', async () => {
    const doc = (await h.app.inject({ url: '/api/openapi.json' })).json();
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith('/api/imports'));
    expect(paths.sort()).toEqual(['/api/imports', '/api/imports/templates/{entity}.csv', '/api/imports/{id}', '/api/imports/{id}/errors.csv']);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    const post = doc.paths['/api/imports'].post;
    expect(post.tags).toEqual(['Imports']);
    expect(post.requestBody.content['multipart/form-data'].schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
  });
});

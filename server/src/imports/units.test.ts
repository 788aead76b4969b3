import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTestStore, realRegistry } from '../testing/harness';
import { columnCatalogue, mapHeader, normalizeHeader } from './columns';
import { canonicalJson, eventId, importContext } from './context';
import { csvLine, neutralise } from './errorFile';
import { presentJob, zeroCounts, type Job } from './jobs';
import { mergeInto, planBatch, readyToStage, type Staged } from './plan';
import { readStage, StageWriter } from './stage';
import { MATERIAL_HEADER } from './testing/materials';
import { removePaths, unneutralise } from './rows';
import { detectDelimiter } from './source';

const reg = realRegistry();

describe('import building blocks', () => {
  it('neutralises spreadsheet formulas, and takes the apostrophe off on the way back', () => {
    for (const c of ['=1+1', '+1', '-5', '@SUM(A1)', '\tx', '\rx']) {
      expect(neutralise(c)).toBe(`'${c}`);
      expect(unneutralise(neutralise(c))).toBe(c);
    }
    expect(neutralise('plain')).toBe('plain');
    expect(unneutralise("'plain")).toBe("'plain");
    expect(csvLine(['a,b', 'say "hi"', '=x', ' pad'], ',')).toBe(`"a,b","say ""hi""",'=x," pad"\r\n`);
  });

  it('detects the delimiter from the header line, ignoring quoted text', () => {
    expect(detectDelimiter('a,b,c')).toBe(',');
    expect(detectDelimiter('a;b;"c,d,e"')).toBe(';');
    expect(detectDelimiter('a\tb\tc')).toBe('\t');
    expect(detectDelimiter('single')).toBe(',');
  });

  it('gives an event the same id whatever the key order, and another id for other content', () => {
    const a = eventId('object_events', { event_time: 't', epcList: ['x'], ilmd: { lot_number: '1', country_of_origin: 'AR' } });
    const b = eventId('object_events', { ilmd: { country_of_origin: 'AR', lot_number: '1' }, epcList: ['x'], event_time: 't' });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(eventId('object_events', { event_time: 'u' })).not.toBe(a);
    expect(eventId('transformation_events', { event_time: 't', epcList: ['x'], ilmd: { lot_number: '1', country_of_origin: 'AR' } })).not.toBe(a);
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
  });

  it('merges a row into a stored record: objects field by field, lists replaced', () => {
    const stored = { name: 'A', address: { city: 'X', post_code: '1' }, phone_number: ['1', '2'] };
    expect(mergeInto(stored, { address: { city: 'Y' }, phone_number: ['3'] })).toEqual({ name: 'A', address: { city: 'Y', post_code: '1' }, phone_number: ['3'] });
    expect(stored.address.city).toBe('X');
    expect(removePaths({ state: 1, a: { b: { c: 1 } }, d: 2 }, ['state', 'a.b.c'])).toEqual({ d: 2 });
  });

  it('matches headers by id, label chain and bare label in English or Spanish', () => {
    const cat = columnCatalogue(reg, 'material');
    expect(normalizeHeader('  Producto  Agroquímico>ID DE ERP ')).toBe('producto agroquimico > id de erp');
    const path = (h: string) => { const t = cat.match(h); return typeof t === 'object' ? t.path : t; };
    expect(path('EXTENSIONS.agrochemicalMaterial.ERP_ID')).toBe('extensions.agrochemicalMaterial.erp_id');
    expect(path('Producto agroquímico > ID de ERP')).toBe('extensions.agrochemicalMaterial.erp_id');
    expect(path('Material type')).toBe('extensions.agrochemicalMaterial.material_type');
    expect(path('gtin')).toBe('ambiguous');
    expect(cat.match('extensions.agrochemicalMaterial.active_ingredients.2.concentration')).toMatchObject({ kind: 'rowCell', index: 1, sub: 'concentration' });
    expect(cat.match('Agrochemical product > Active ingredients 3 > Active ingredient')).toMatchObject({ kind: 'rowCell', index: 2, sub: 'ai_product_id' });
    expect(cat.match('nothing like it')).toBeUndefined();
    const m = mapHeader(cat, ['id', 'name', 'Import errors', 'whatever', 'Name']);
    expect(m).toMatchObject({ ignored: ['id'], unknown: ['whatever'], duplicates: [{ header: 'Name', other: 'name' }] });
  });

  it('moves one progress bar through a commit whose rows are written while the rest is validated', () => {
    const job = {
      id: 'J', entity: 'material', kind: 'master', fileName: 'f.csv', fileBytes: 1, format: { delimiter: ',', encoding: 'utf-8' }, dryRun: false, mode: 'all-or-nothing',
      status: 'running', phase: 'validating', createdAt: '', createdBy: { userId: 'u', email: 'e', displayName: 'd' }, rowsTotal: 1000, rowsExact: false,
      rowsValidated: 0, rowsApplied: 0, rowsValid: 0, counts: zeroCounts(), header: [], columns: [], messages: [], attempts: 1, errorBatches: 0, errorRows: 0,
    } as unknown as Job;
    const percent = (over: Partial<Job>) => (presentJob({ ...job, ...over }).progress as { percent: number }).percent;
    const steps = [
      percent({}),
      percent({ rowsValidated: 500 }),
      percent({ rowsValidated: 500, rowsApplied: 300 }),
      percent({ rowsValidated: 1000, rowsApplied: 400, rowsExact: true }),
      percent({ phase: 'applying', rowsValidated: 1000, rowsValid: 1000, rowsApplied: 400 }),
      percent({ phase: 'applying', rowsValidated: 1000, rowsValid: 1000, rowsApplied: 1000 }),
    ];
    expect(steps).toEqual([0, 20, 38, 64, 64, 100]);
    expect(percent({ dryRun: true, rowsValidated: 500 })).toBe(50);
  });

  it('stages a row as its particulars and its JSON, and inserts it from that text with its id and metadata', async () => {
    const ctx = importContext(reg, 'material', mapHeader(columnCatalogue(reg, 'material'), MATERIAL_HEADER).columns, MATERIAL_HEADER.length);
    const agro = { erp_id: 'M1', active_ingredients: [{ ai_product_id: 'X', concentration: '1%' }] };
    const rows: Staged[] = [
      { r: 2, v: { name: 'A "quoted"\ttab', createdAt: 'forged', id: 'forged', extensions: { agrochemicalMaterial: agro } }, d: ['state'] },
      { r: 3, v: { name: 'B', extensions: { agrochemicalMaterial: { erp_id: 'M2', bad: { $where: '1' } } } } },
    ];
    const { ready, refused } = readyToStage(ctx, rows, true);
    expect(refused).toEqual([{ row: 3, reason: expect.stringContaining('$where') }]);
    expect(ready).toHaveLength(1);
    // What the server sets is never taken from a file.
    expect(ready[0].v).toEqual({ name: 'A "quoted"\ttab', extensions: { agrochemicalMaterial: agro } });
    expect(ready[0].k).toEqual([ctx.keyPaths.indexOf('extensions.agrochemicalMaterial.erp_id'), 'M1']);
    expect(ready[0].a).toEqual(['extensions.agrochemicalMaterial.active_ingredients']);

    const dir = mkdtempSync(join(tmpdir(), 'tm-stage-'));
    const opened = await openTestStore(reg, 'tm-stage-store-');
    try {
      const file = join(dir, 'stage');
      const writer = await StageWriter.create(file);
      await writer.append(ready);
      await writer.close();
      const chunks = [];
      for await (const c of readStage(file, 0, 10)) chunks.push(c);
      const back = chunks[0].rows[0];
      expect(back).toMatchObject({ r: 2, d: ['state'], k: ready[0].k, a: ready[0].a, text: ready[0].text });
      expect(back.v).toEqual(ready[0].v);

      const now = '2026-11-24T10:00:00.000Z';
      const plan = await planBatch(opened.store, ctx, [back], 'u1', now);
      expect(plan.inserts).toHaveLength(1);
      const { id, json } = plan.inserts[0].doc;
      expect(JSON.parse(json)).toEqual({
        id, ...ready[0].v, createdAt: now, updatedAt: now, createdBy: 'u1', updatedBy: 'u1', ...(ctx.def.sync ? { sync: { status: '' } } : {}),
      });
      expect([...plan.arrays]).toEqual(ready[0].a);

      // A line staged before lines had two parts reads the same, noted as readyToStage notes it.
      writeFileSync(file, `${JSON.stringify({ r: 7, v: { name: 'Old', updatedBy: 'x', extensions: { agrochemicalMaterial: agro } } })}\n`);
      const old = [];
      for await (const c of readStage(file, 0, 10)) old.push(...c.rows);
      expect(old[0]).toMatchObject({ r: 7, v: { name: 'Old', extensions: { agrochemicalMaterial: agro } }, a: ready[0].a });
      expect(old[0].v).not.toHaveProperty('updatedBy');
    } finally {
      await opened.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

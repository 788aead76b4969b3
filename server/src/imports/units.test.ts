import { describe, expect, it } from 'vitest';
import { realRegistry } from '../testing/harness';
import { columnCatalogue, mapHeader, normalizeHeader } from './columns';
import { canonicalJson, eventId } from './context';
import { csvLine, neutralise } from './errorFile';
import { presentJob, zeroCounts, type Job } from './jobs';
import { mergeInto } from './plan';
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
});

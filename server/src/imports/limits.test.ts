/**
 * The caps on one import (limits.ts): content once decompressed and data rows. A file past
 * either is refused with a message saying so, and nothing of it remains, even the rows written
 * while the rest of the file was still being checked.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readImportLimits } from './limits';
import { multipart, seedReferences, startImportHarness, type ImportHarness } from './testing/harness';
import { MATERIAL_HEADER, materialRow } from './testing/materials';

const MB = 1024 * 1024;
let h: ImportHarness;
let importer: Record<string, string>;

beforeAll(async () => {
  h = await startImportHarness({ maxContentBytes: MB, maxRows: 1000, applyBatch: 200 });
  importer = await h.userWith(['Data Import', 'Master Data']);
  await seedReferences(h.store);
});
afterAll(async () => { await h?.close(); });

/** n valid material rows; `note` fills a column that is no field (reported, not imported) to make rows long. */
function materials(n: number, note = ''): string {
  let csv = `${[...MATERIAL_HEADER, 'note'].join(',')}\n`;
  for (let i = 1; i <= n; i++) csv += `${materialRow(i).trimEnd()},${note}\n`;
  return csv;
}

async function post(content: string | Buffer, name = 'materials.csv') {
  const body = multipart({ entity: 'material' }, { name, content });
  return h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...importer, ...body.headers }, payload: body.payload });
}

async function job(content: string | Buffer, name?: string) {
  const r = await post(content, name);
  expect(r.statusCode, r.body).toBe(202);
  await h.runner.idle();
  return (await h.app.inject({ url: `/api/imports/${r.json().id}`, headers: importer })).json();
}

const stored = () => h.store.count('material', {});

describe('the caps on an import', () => {
  it('fails a gzip file whose content passes the cap, and takes back what it wrote meanwhile', async () => {
    // 2 MB of CSV in a few KB: the rows before the cap are valid and written as the rest is checked.
    const bomb = gzipSync(materials(900, 'x'.repeat(2300)));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const j = await job(bomb, 'materials.csv.gz');
    expect(j.status).toBe('failed');
    expect(j.error).toMatchObject({
      code: 'IMPORT_CONTENT_TOO_LARGE',
      message: 'Nothing was imported: the file holds more than 1 MB of data once decompressed; split it into smaller files',
    });
    expect(j.counts).toMatchObject({ insert: 0, update: 0 });
    expect(await stored()).toBe(0);
  });

  it('refuses at once a plain file larger than the content cap', async () => {
    const r = await post(materials(500, 'x'.repeat(2300)));
    expect(r.statusCode).toBe(413);
    expect(r.json().error).toMatchObject({ code: 'IMPORT_CONTENT_TOO_LARGE', params: { limit: 1 } });
    const list = await h.app.inject({ url: '/api/imports', headers: importer });
    expect(list.json().data.filter((d: { fileBytes: number }) => d.fileBytes > MB)).toEqual([]);
  });

  it('fails a file of more rows than the cap, and takes back what it wrote meanwhile', async () => {
    const j = await job(materials(1001));
    expect(j.status).toBe('failed');
    expect(j.error).toMatchObject({ code: 'IMPORT_TOO_MANY_ROWS', message: 'Nothing was imported: the file has more than 1000 rows; split it into smaller files' });
    expect(await stored()).toBe(0);
    const full = await job(materials(1000));
    expect(full.status).toBe('succeeded');
    expect(await stored()).toBe(1000);
  });

  it('reads the caps from the environment, with defaults that let a million rows in', () => {
    expect(readImportLimits({})).toEqual({ maxFileBytes: 50 * MB, maxContentBytes: 512 * MB, maxRows: 1_500_000, maxAttempts: 2 });
    expect(readImportLimits({ IMPORT_MAX_CONTENT_MB: '8', IMPORT_MAX_ROWS: '10', IMPORT_MAX_FILE_MB: '2', IMPORT_MAX_ATTEMPTS: '1' }))
      .toEqual({ maxFileBytes: 2 * MB, maxContentBytes: 8 * MB, maxRows: 10, maxAttempts: 1 });
    expect(() => readImportLimits({ IMPORT_MAX_ROWS: 'many' })).toThrow('IMPORT_MAX_ROWS must be a whole number of at least 1, got "many"');
  });
});

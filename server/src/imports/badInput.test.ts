/**
 * Bad input: none of these files may write a record or take the server down. Each test
 * compares the whole store (every collection a master-data entity lives in) before and after.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, seedReferences, startImportHarness, type ImportHarness } from './testing/harness';

let h: ImportHarness;
let importer: Record<string, string>;

const A = 'extensions.agrochemicalMaterial';
const HEADER = `name,${A}.product_id,${A}.erp_id,${A}.company_id,${A}.material_type`;
const good = (i: number) => `Material ${i},P${i},M${i},C000001,formulated_product`;

async function snapshot(): Promise<string> {
  const out: Record<string, unknown> = {};
  for (const e of Object.keys(h.registry.entities)) if (e !== 'user') out[e] = await h.store.find(e, { sort: { id: 1 } });
  return JSON.stringify(out);
}

async function post(content: string | Buffer, fields: Record<string, string> = {}, name = 'file.csv') {
  const body = multipart({ entity: 'material', ...fields }, { name, content });
  return h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...importer, ...body.headers }, payload: body.payload });
}

/** Uploads, waits for the job, returns it with its rejected rows. */
async function job(content: string | Buffer, fields: Record<string, string> = {}) {
  const r = await post(content, fields);
  expect(r.statusCode, r.body).toBe(202);
  await h.runner.idle();
  return (await h.app.inject({ url: `/api/imports/${r.json().id}?pageSize=200`, headers: importer })).json();
}

async function unchangedBy(fn: () => Promise<void>): Promise<void> {
  const before = await snapshot();
  await fn();
  await h.runner.idle();
  expect(await snapshot()).toBe(before);
  expect((await h.app.inject({ url: '/api/health' })).statusCode).toBe(200);
}

beforeAll(async () => {
  h = await startImportHarness({ maxFileBytes: 50 * 1024 * 1024 });
  importer = await h.userWith(['Data Import', 'Master Data']);
  await seedReferences(h.store);
});
afterAll(async () => { await h?.close(); });

describe('bad input writes nothing and keeps the server up', () => {
  it('refuses a file that is not CSV (an xlsx workbook, a PDF, binary data)', async () => {
    await unchangedBy(async () => {
      for (const [content, what] of [
        [Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4]), 'Excel .xlsx'],
        [Buffer.from('%PDF-1.7\n%\xe2\xe3\n'), 'PDF'],
        [Buffer.from([0x01, 0x00, 0x02, 0x00, 0x41, 0x42]), 'binary'],
      ] as const) {
        const r = await post(content);
        expect(r.statusCode).toBe(400);
        expect(r.json().error.code).toBe('IMPORT_NOT_CSV');
        expect(r.json().error.message).toContain(what);
      }
    });
  });

  it('refuses a text file whose header names no required column, naming the missing ones', async () => {
    await unchangedBy(async () => {
      const r = await post('{"name": "not a csv"}\n');
      expect(r.statusCode).toBe(400);
      expect(r.json().error.code).toBe('IMPORT_MISSING_COLUMNS');
      expect(r.json().error.message).toContain('Name (name)');
      expect(r.json().error.details.map((d: { field: string }) => d.field)).toContain(`${A}.erp_id`);
      // The values of the message, for a client to say it in its user's language.
      expect(r.json().error.params.columns).toContain('Name (name)');
    });
  });

  it('reads UTF-8 with a byte-order mark', async () => {
    const j = await job(`\ufeff${HEADER}\nÑandú ñ,P1,BOM1,C000001,formulated_product\n`, { dryRun: 'true' });
    expect(j.counts).toEqual({ insert: 1, update: 0, unchanged: 0, reject: 0 });
    expect(j.columns[0]).toEqual({ header: 'name', path: 'name' });
  });

  it('detects Latin-1 (Windows-1252), converts it and says so', async () => {
    const latin1 = Buffer.from(`${HEADER}\nCafé Señor ñandú,P1,LAT1,C000001,formulated_product\n`, 'latin1');
    await unchangedBy(async () => {
      const j = await job(latin1, { dryRun: 'true' });
      expect(j.encoding).toBe('windows-1252');
      expect(j.messages[0]).toMatchObject({ code: 'IMPORT_ENCODING', severity: 'warn' });
      expect(j.counts.insert).toBe(1);
    });
    const j = await job(latin1);
    expect(j.status).toBe('succeeded');
    const [m] = await h.store.find('material', { filter: { [`${A}.erp_id`]: 'LAT1' } });
    expect(m.name).toBe('Café Señor ñandú');
  });

  it('converts a file that turns out not to be UTF-8 only after the first 64 KB', async () => {
    const filler = Array.from({ length: 1500 }, (_, i) => good(10_000 + i)).join('\n');
    const j = await job(Buffer.concat([Buffer.from(`${HEADER}\n${filler}\n`), Buffer.from('Niño,P2,LAT2,C000001,formulated_product\n', 'latin1')]), { dryRun: 'true' });
    expect(j.status).toBe('succeeded');
    expect(j.encoding).toBe('windows-1252');
    expect(j.counts.insert).toBe(1501);
  });

  it('refuses an empty file and a file with only a header', async () => {
    await unchangedBy(async () => {
      for (const content of ['', '\ufeff', '  \n\n']) {
        const r = await post(content);
        expect(r.statusCode).toBe(400);
        expect(r.json().error.code).toBe('IMPORT_EMPTY_FILE');
      }
      const r = await post(`${HEADER}\n\n`);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toMatchObject({ code: 'IMPORT_NO_ROWS', message: 'The file has a header row but no data rows' });
    });
  });

  it('rejects ragged rows at their row, with the cell counts', async () => {
    await unchangedBy(async () => {
      const j = await job(`${HEADER}\n${good(1)}\n${good(2)},extra\nshort,row\n`);
      expect(j.error).toMatchObject({ code: 'IMPORT_REJECTED', message: 'Nothing was imported: 2 rows were rejected and the mode is all or nothing' });
      expect(j.errors.data).toEqual([
        { row: 3, messages: [expect.objectContaining({ code: 'IMPORT_RAGGED_ROW', message: 'The row has 6 cells; the header has 5' })] },
        { row: 4, messages: [expect.objectContaining({ code: 'IMPORT_RAGGED_ROW', message: 'The row has 2 cells; the header has 5' })] },
      ]);
    });
  });

  it('reads quoted fields holding commas, quotes and newlines (a spreadsheet row, one row number)', async () => {
    const j = await job(`${HEADER}\n"Glifosato, 48% ""premium""\nsecond line",P1,Q1,C000001,formulated_product\n${good(2)}\n`);
    expect(j.counts).toEqual({ insert: 2, update: 0, unchanged: 0, reject: 0 });
    const [m] = await h.store.find('material', { filter: { [`${A}.erp_id`]: 'Q1' } });
    expect(m.name).toBe('Glifosato, 48% "premium"\nsecond line');
    const bad = await job(`${HEADER}\n"a\nb",P1,,C000001,formulated_product\n`, { dryRun: 'true' });
    expect(bad.errors.data[0].row).toBe(2);
  });

  it('refuses a file over 50 MB with 413 and keeps nothing of it', async () => {
    await unchangedBy(async () => {
      const big = Buffer.alloc(50 * 1024 * 1024 + 10, 'a');
      big.write(`${HEADER}\n`);
      const r = await post(big);
      expect(r.statusCode).toBe(413);
      expect(r.json().error).toMatchObject({ code: 'IMPORT_FILE_TOO_LARGE', message: 'The file is larger than the 50 MB an import accepts' });
    });
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(`${h.dir}/imports`).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('keeps NoSQL operators in cells as data, never as queries', async () => {
    await unchangedBy(async () => {
      const j = await job([
        `${HEADER},${A}.active_ingredients`,
        `"{""$gt"": """"}",P1,N1,"{""$ne"": null}",formulated_product,`,
        `Op,P2,"{""$where"": ""1""}",C000001,formulated_product,"[{""ai_product_id"": {""$ne"": null}, ""concentration"": ""1%""}]"`,
        `Op3,P3,N3,C000001,formulated_product,"[{""$where"": ""sleep(1000)""}]"`,
      ].join('\n'));
      expect(j.status).toBe('failed');
      const codes = j.errors.data.map((r: { messages: { code: string }[] }) => r.messages.map((m) => m.code));
      expect(codes[0]).toContain('FORMAT_REFERENCE_NOT_FOUND'); // company named {"$ne": null}: no such company
      expect(codes[1]).toContain('FORMAT_REFERENCE_NOT_FOUND'); // the operator object matched no material
    });
  });

  it('reports the same key twice in one file instead of merging the rows', async () => {
    await unchangedBy(async () => {
      const j = await job(`${HEADER}\n${good(7)}\nOther name,P7,M7,C000001,formulated_product\n`);
      expect(j.status).toBe('failed');
      expect(j.errors.data).toEqual([{ row: 3, messages: [expect.objectContaining({ code: 'IMPORT_DUPLICATE_IN_FILE', message: 'ERP ID : M7 is already used in row 2 of this file' })] }]);
    });
  });

  it('refuses a duplicated or ambiguous column, and an entity it cannot import', async () => {
    await unchangedBy(async () => {
      const dup = await post(`${HEADER},Name\n${good(1)},x\n`);
      expect(dup.json().error.code).toBe('IMPORT_DUPLICATE_COLUMN');
      const amb = await post(`${HEADER},GTIN\n${good(1)},x\n`);
      expect(amb.json().error.code).toBe('IMPORT_AMBIGUOUS_COLUMN');
      const body = multipart({ entity: 'user' }, { name: 'u.csv', content: 'email\na@b.c\n' });
      const r = await h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...importer, ...body.headers }, payload: body.payload });
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toMatchObject({ code: 'LOT_NOT_STRING', message: 'The lot identifier must be a string' });
    });
  });

  it('refuses a body without a file, a non-multipart or malformed body, and an importer without the entity\'s access', async () => {
    await unchangedBy(async () => {
      const body = multipart({ entity: 'material' });
      expect((await h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...importer, ...body.headers }, payload: body.payload })).json().error.code).toBe('IMPORT_NO_FILE');
      expect((await h.app.inject({ method: 'POST', url: '/api/imports', headers: importer, payload: { entity: 'material' } })).statusCode).toBe(415);
      for (const payload of ['garbage', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nname\nx\n']) {
        const cut = await h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...importer, 'content-type': 'multipart/form-data; boundary=x' }, payload });
        expect(cut.statusCode).toBe(400);
        expect(cut.json().error.code).toBe('BAD_MULTIPART');
      }
      expect((await h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...importer, 'content-type': 'text/csv' }, payload: 'name\nx\n' })).statusCode).toBe(415);
      const dataOnly = await h.userWith(['Data Import']);
      const f = multipart({ entity: 'material' }, { name: 'm.csv', content: `${HEADER}\n${good(1)}\n` });
      const r = await h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...dataOnly, ...f.headers }, payload: f.payload });
      expect(r.statusCode).toBe(403);
      expect((await h.app.inject({ url: '/api/imports' })).statusCode).toBe(401);
    });
  });

  it('accepts a gzip-compressed file and refuses a gzip bomb past the content limit', async () => {
    const j = await job(gzipSync(`${HEADER}\n${good(30)}\n`), { dryRun: 'true' });
    expect(j.counts.insert).toBe(1);
    const small = await startImportHarness({ maxContentBytes: 1024 * 1024 });
    try {
      const headers = await small.userWith(['superadmin']);
      const rows = Array.from({ length: 40_000 }, (_, i) => good(i)).join('\n');
      const body = multipart({ entity: 'material', dryRun: 'true' }, { name: 'bomb.csv.gz', content: gzipSync(`${HEADER}\n${rows}\n`) });
      const r = await small.app.inject({ method: 'POST', url: '/api/imports', headers: { ...headers, ...body.headers }, payload: body.payload });
      expect(r.statusCode).toBe(202);
      await small.runner.idle();
      const bomb = (await small.app.inject({ url: `/api/imports/${r.json().id}`, headers })).json();
      expect(bomb.status).toBe('failed');
      expect(bomb.error.message).toContain('more than 1 MB of data');
    } finally {
      await small.close();
    }
  });
});

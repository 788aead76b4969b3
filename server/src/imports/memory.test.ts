/**
 * Files of rejected rows under a capped heap: the server checks them to the end, reports every
 * row and stays up. The real server runs with 256 MB (`npm start`); these files are scaled to a
 * 64 MB heap, under which each of them killed the server ("JavaScript heap out of memory")
 * while the validation thread's outcomes piled up unrecorded in the main thread.
 */
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled, signedIn, stopped } from './testing/process';
import type { ServerProcess } from '../testing/process';

const ROWS = 150_000;
const HEAP = '--max-old-space-size=64';
let tmp: string;

/** A units_of_measurement file of n rows, each made by row(i). */
async function unitsCsv(name: string, n: number, row: (i: number) => string): Promise<string> {
  const path = join(tmp, name);
  const out = createWriteStream(path);
  let buf = 'unit_name,sap_unit_id,sap_unit_name,state\n';
  for (let i = 1; i <= n; i++) {
    buf += row(i);
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'close');
  return path;
}

let server: ServerProcess;
let c: Awaited<ReturnType<typeof signedIn>>['c'];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tm-mem-'));
  ({ server, c } = await signedIn({ DATA_DIR: join(tmp, 'data'), NODE_OPTIONS: HEAP }));
}, 60_000);
afterAll(async () => {
  if (server) await stopped(server);
  rmSync(tmp, { recursive: true, force: true });
});

async function imported(path: string, name = 'units.csv') {
  const died = (e: unknown) => {
    throw new Error(`the server died (${String(e)}): ${server.output().split('\n').filter((l) => !/^\s*\d+: 0x/.test(l)).join('\n').slice(-600)}`);
  };
  const job = await c.upload({ entity: 'units_of_measurement' }, await openAsBlob(path), name).catch(died);
  const done = await settled(c, job.id as string, 120_000).catch(died);
  expect(server.child.exitCode).toBeNull();
  return { id: job.id as string, done, first: await c.get(`/api/imports/${String(job.id)}?pageSize=1`) };
}

describe('an import of rejected rows under a capped heap', () => {
  it(`reports ${ROWS} invalid rows (state=x) and stays up`, async () => {
    const path = await unitsCsv('invalid.csv', ROWS, (i) => `Unit ${i},S${i},SAP-${i},x\n`);
    const { done, first } = await imported(path);
    expect(done.status).toBe('failed');
    expect(done.counts).toEqual({ insert: 0, update: 0, unchanged: 0, reject: ROWS });
    expect(done.error).toMatchObject({ code: 'IMPORT_REJECTED', params: { count: ROWS } });
    expect((first.errors as { total: number; data: { row: number; messages: { field: string }[] }[] })).toMatchObject({
      total: ROWS, data: [{ row: 2, messages: [{ field: 'state' }] }],
    });
  }, 150_000);

  it(`reports ${ROWS - 1} rows repeating one import key, and serves their error file`, async () => {
    const path = await unitsCsv('duplicates.csv', ROWS, () => 'Unit,S1,SAP-1,1\n');
    const { id, done } = await imported(path);
    expect(done.status).toBe('failed');
    expect(done.counts).toEqual({ insert: 0, update: 0, unchanged: 0, reject: ROWS - 1 });
    // The error file streams: header plus one line per rejected row.
    const r = await fetch(`${server.url}/api/imports/${id}/errors.csv`, { headers: { authorization: c.authorization() } });
    expect(r.status).toBe(200);
    let lines = 0;
    for await (const chunk of r.body!) for (const b of chunk as Uint8Array) if (b === 0x0a) lines++;
    expect(lines).toBe(ROWS);
    expect((await c.get('/api/health')).status).toBe('ok');
  }, 150_000);

  it('stops reading a gzip file at the content cap, however far it expands', async () => {
    // 16 MB of one repeated row in a few KB (the reproducer: 2.8 MB expanding to 1.1 GiB).
    const csv = await unitsCsv('bomb.csv', 1_000_000, () => 'Unit,S1,SAP-1,1\n');
    const gz = join(tmp, 'bomb.csv.gz');
    writeFileSync(gz, gzipSync(readFileSync(csv)));
    await stopped(server);
    ({ server, c } = await signedIn({ DATA_DIR: join(tmp, 'data'), NODE_OPTIONS: HEAP, IMPORT_MAX_CONTENT_MB: '4' }));
    const { done } = await imported(gz, 'bomb.csv.gz');
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'IMPORT_CONTENT_TOO_LARGE', params: { limit: 4 } });
    expect((await c.get('/api/health')).status).toBe('ok');
  }, 150_000);
});

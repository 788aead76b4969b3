/**
 * kill -9 in the middle of an import: a real server process is killed while it writes, then
 * started again on the same data directory. It resumes the job (or, with no attempts left,
 * rolls it back): never a duplicate, never a half-written record.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/index';
import { client, seedOverApi, spawnImportServer } from './testing/process';
import { materialRow, writeMaterialCsv } from './testing/materials';
import type { ServerProcess } from '../testing/process';

const ROWS = 40_000;
// The embedded store, whatever MONGODB_URI the suite runs with: this is about kill -9 on it.
const ADMIN = { ADMIN_EMAIL: 'crash@test.local', ADMIN_PASSWORD: 'Crash-test-2026', MONGODB_URI: '' };
let tmp: string;
let file: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tm-crash-'));
  file = join(tmp, 'materials.csv');
  await writeMaterialCsv(file, ROWS);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Starts an import and SIGKILLs the server once some chunks, not all, are written: while the
 * rest of the file is still being validated (the embedded store writes as it validates), or
 * after validation, while the staged rows are written (the server then writes nothing before
 * validation ends: writing as it validates, it may have caught up by then).
 */
async function killMidWrite(dataDir: string, phase: 'validating' | 'applying' = 'applying'): Promise<{ id: string; appliedAtKill: number }> {
  const server = await spawnImportServer({ DATA_DIR: dataDir, ...ADMIN, IMPORT_WRITE_WHILE_VALIDATING: phase === 'applying' ? '0' : '1' });
  const c = client(server.url);
  await c.signIn(ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
  await seedOverApi(c);
  const job = await c.upload({ entity: 'material' }, await openAsBlob(file), 'materials.csv');
  const id = job.id as string;
  const appliedAtKill = await until('writing to start', async () => {
    const j = await c.get(`/api/imports/${id}`);
    const rows = j.rows as { applied: number };
    if (j.status !== 'running' && j.status !== 'queued') throw new Error(`finished before the kill: ${JSON.stringify(j)}`);
    return j.phase === phase && rows.applied > 0 ? rows.applied : undefined;
  });
  server.child.kill('SIGKILL');
  await server.exited;
  return { id, appliedAtKill };
}

async function restart(dataDir: string, extra: Record<string, string> = {}): Promise<{ server: ServerProcess; c: ReturnType<typeof client> }> {
  const server = await spawnImportServer({ DATA_DIR: dataDir, ...ADMIN, ...extra });
  const c = client(server.url);
  await c.signIn(ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
  return { server, c };
}

async function stopped(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

/** The stored materials, read straight from the data directory once the server is gone. */
async function storedMaterials(dataDir: string) {
  const store = await openStore({ dataDir });
  try {
    return await store.find('material', { projection: { name: 1, extensions: 1, createdAt: 1, createdBy: 1 } });
  } finally {
    await store.close();
  }
}

describe('an import survives kill -9 of the server', () => {
  it.each(['applying', 'validating'] as const)('resumes after a restart when killed while %s: every row once, every record whole', async (phase) => {
    const dataDir = join(tmp, `resume-${phase}`);
    const { id, appliedAtKill } = await killMidWrite(dataDir, phase);
    expect(appliedAtKill).toBeGreaterThan(0);
    expect(appliedAtKill).toBeLessThan(ROWS);
    const { server, c } = await restart(dataDir);
    const done = await until('the job to finish', async () => {
      const j = await c.get(`/api/imports/${id}`);
      return j.status === 'running' || j.status === 'queued' ? undefined : j;
    });
    await stopped(server);
    expect(done.status).toBe('succeeded');
    expect(done.counts).toEqual({ insert: ROWS, update: 0, unchanged: 0, reject: 0 });
    const stored = await storedMaterials(dataDir);
    expect(stored).toHaveLength(ROWS);
    const erpIds = new Set(stored.map((m) => (m.extensions as { agrochemicalMaterial: { erp_id: string } }).agrochemicalMaterial.erp_id));
    expect(erpIds.size).toBe(ROWS);
    // Whole records: each carries every cell of its row and the import's metadata.
    for (const m of stored) {
      const agro = (m.extensions as { agrochemicalMaterial: Record<string, unknown> }).agrochemicalMaterial;
      const n = String(agro.erp_id).slice(1);
      expect(materialRow(Number(n))).toContain(`${m.name},`);
      expect(agro).toMatchObject({ product_id: `P${n}`, senasa_name: `SENASA ${n}`, reg_num: `REG-${n}`, material_type: 'formulated_product' });
      expect(m.createdAt).toBeTypeOf('string');
    }
  }, 300_000);

  it('rolls the job back when it has no attempts left: nothing of it remains', async () => {
    const dataDir = join(tmp, 'rollback');
    const { id, appliedAtKill } = await killMidWrite(dataDir);
    expect(appliedAtKill).toBeGreaterThan(0);
    const { server, c } = await restart(dataDir, { IMPORT_MAX_ATTEMPTS: '1' });
    const done = await until('the rollback', async () => {
      const j = await c.get(`/api/imports/${id}`);
      return j.status === 'running' || j.status === 'queued' ? undefined : j;
    });
    await stopped(server);
    expect(done.status).toBe('rolled_back');
    expect((done.error as { code: string }).code).toBe('IMPORT_ROLLED_BACK');
    expect(await storedMaterials(dataDir)).toHaveLength(0);
  }, 300_000);
});

/**
 * kill -9 in the middle of an import: a real server process is killed while it writes, or at
 * each step of a job (IMPORT_CRASH_AT, crashPoint.ts), then started again on the same data
 * directory. The job's state always agrees with the store: it resumes (or, with no attempts
 * left, is given up and takes back what it wrote); never a duplicate, never a half-written
 * record, never "rolled back" with rows stored.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, client, seedOverApi, settled, signedIn, spawnImportServer, stopped, storedAfter, until } from './testing/process';
import { materialRow, writeMaterialCsv } from './testing/materials';

const ROWS = 40_000;
/** The file killed at every boundary: small, written in 4 chunks of 500. */
const SMALL = 2_000;
const SMALL_BATCHES = { IMPORT_APPLY_BATCH: '500', IMPORT_VALIDATE_BATCH: '250' };
let tmp: string;
let file: string;
let small: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tm-crash-'));
  file = join(tmp, 'materials.csv');
  small = join(tmp, 'small.csv');
  await writeMaterialCsv(file, ROWS);
  await writeMaterialCsv(small, SMALL);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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

const restart = (dataDir: string, extra: Record<string, string> = {}) => signedIn({ DATA_DIR: dataDir, ...extra });
const storedMaterials = async (dataDir: string) => (await storedAfter(dataDir)).materials;
const erpIds = (stored: Awaited<ReturnType<typeof storedMaterials>>) =>
  new Set(stored.map((m) => (m.extensions as { agrochemicalMaterial: { erp_id: string } }).agrochemicalMaterial.erp_id));

/** Starts the small import on a server that kills itself at the boundary; resolves once it is dead. */
async function killedAt(dataDir: string, env: Record<string, string>): Promise<string> {
  const { server, c } = await restart(dataDir, { ...SMALL_BATCHES, ...env });
  await seedOverApi(c);
  const job = await c.upload({ entity: 'material' }, await openAsBlob(small), 'small.csv');
  // Polling fails once the server is gone: then it is its exit that tells.
  const finished = settled(c, job.id as string, 60_000).then((j) => `finished ${String(j.status)}`, () => server.exited.then(() => 'killed'));
  let exit = await Promise.race([server.exited.then(() => 'killed'), finished]);
  // From `marked` on the job already says succeeded when the process dies a moment later, so a
  // finished job gets a few seconds for that death before it counts as "not killed".
  if (exit !== 'killed') exit = await Promise.race([server.exited.then(() => 'killed'), new Promise<string>((r) => setTimeout(() => r(exit), 10_000))]);
  if (exit !== 'killed') {
    await stopped(server);
    throw new Error(`the server was not killed at ${env.IMPORT_CRASH_AT}: the job ${exit}`);
  }
  expect(server.child.signalCode).toBe('SIGKILL');
  return job.id as string;
}

describe('an import survives kill -9 of the server', () => {
  it.each(['applying', 'validating'] as const)('resumes after a restart when killed while %s: every row once, every record whole', async (phase) => {
    const dataDir = join(tmp, `resume-${phase}`);
    const { id, appliedAtKill } = await killMidWrite(dataDir, phase);
    expect(appliedAtKill).toBeGreaterThan(0);
    expect(appliedAtKill).toBeLessThan(ROWS);
    const { server, c } = await restart(dataDir);
    const done = await settled(c, id);
    await stopped(server);
    expect(done.status).toBe('succeeded');
    expect(done.counts).toEqual({ insert: ROWS, update: 0, unchanged: 0, reject: 0 });
    const stored = await storedMaterials(dataDir);
    expect(stored).toHaveLength(ROWS);
    expect(erpIds(stored).size).toBe(ROWS);
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
    const done = await settled(c, id);
    await stopped(server);
    expect(done.status).toBe('rolled_back');
    expect((done.error as { code: string }).code).toBe('IMPORT_ROLLED_BACK');
    expect(await storedMaterials(dataDir)).toHaveLength(0);
  }, 300_000);
});

/**
 * Every boundary of a job, killed there once and restarted without the hook: the job ends
 * succeeded with every row once, and nothing of its undo log or staging file is left. Written
 * after validation (IMPORT_WRITE_WHILE_VALIDATING=0) so that each step is its own; two kills
 * while writing as it validates as well.
 */
/** A start that resumes the job and is killed by it (possibly before it says it listens). */
async function diesOnStart(env: Record<string, string>): Promise<void> {
  try {
    const server = await spawnImportServer({ ...ADMIN, ...env });
    await server.exited;
    expect(server.child.signalCode).toBe('SIGKILL');
  } catch (e) {
    expect(String(e)).toContain('server exited early');
  }
}

// Of the 4 chunks: after the first (some written, several left), the third (one left) and the
// last (none left). After the second is the first's case again (some written, several left).
const BOUNDARIES: [string, Record<string, string>][] = [
  ...['staged', 'validated', 'applying', 'chunk:1', 'chunk:3', 'chunk:4', 'written', 'marked', 'undo-cleared', 'unstaged']
    .map((at): [string, Record<string, string>] => [at, { IMPORT_CRASH_AT: at, IMPORT_WRITE_WHILE_VALIDATING: '0' }]),
  ...['chunk:1', 'chunk:3'].map((at): [string, Record<string, string>] => [`${at} while validating`, { IMPORT_CRASH_AT: at }]),
];

describe('a kill at any step of an import leaves a job that says what the store holds', () => {
  it.each(BOUNDARIES)('killed at %s, it ends succeeded with every row once and no undo log', async (name, env) => {
    const dataDir = join(tmp, `at-${name.replace(/[^a-z0-9]+/g, '-')}`);
    const id = await killedAt(dataDir, env);
    const { server, c } = await restart(dataDir);
    const done = await settled(c, id, 60_000);
    await stopped(server);
    const { materials, undo } = await storedAfter(dataDir);
    expect({ status: done.status, error: done.error, counts: done.counts }).toEqual({
      status: 'succeeded', error: null, counts: { insert: SMALL, update: 0, unchanged: 0, reject: 0 },
    });
    expect(materials).toHaveLength(SMALL);
    expect(erpIds(materials).size).toBe(SMALL);
    expect(undo).toBe(0);
    expect(readdirSync(join(dataDir, 'imports')).filter((f) => f.includes('.stage'))).toEqual([]);
  }, 120_000);

  it('gives a job up at the start after two failed starts, instead of starting it a third time', async () => {
    const dataDir = join(tmp, 'given-up');
    const crash = { IMPORT_CRASH_AT: 'validated', IMPORT_WRITE_WHILE_VALIDATING: '0' };
    const id = await killedAt(dataDir, crash);
    // The second start dies at the same place.
    await diesOnStart({ DATA_DIR: dataDir, ...SMALL_BATCHES, ...crash });
    const { server, c } = await restart(dataDir);
    const done = await settled(c, id, 60_000);
    await stopped(server);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'IMPORT_FAILED', message: 'The import failed and changed nothing: the server stopped 2 times during the import' });
    const { materials, undo } = await storedAfter(dataDir);
    expect(materials).toHaveLength(0);
    expect(undo).toBe(0);
    expect(existsSync(join(dataDir, 'imports', `${id}.stage.ndjson`))).toBe(false);
  }, 120_000);
});

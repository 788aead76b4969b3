import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../testing/process';
import { storeTarget } from '../testing/harness';
import { copyDefinitions } from '../../../definitions/read';

const dir = mkdtempSync(join(tmpdir(), 'tm-life-'));
// On MONGODB_URI, a database of its own: the URI's default one may hold another run's countries.
const { uri } = storeTarget();
const mongo = uri ? Object.assign(new URL(uri), { pathname: `/life_${randomBytes(5).toString('hex')}` }).toString() : '';
const env = { DATA_DIR: dir, MONGODB_URI: mongo, ADMIN_EMAIL: 'root@test.local', ADMIN_PASSWORD: 'Root-pass-2026' };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function signIn(url: string): Promise<Record<string, string>> {
  const r = await fetch(`${url}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }) });
  const { token } = await r.json() as { token: string };
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
}

function createCountry(url: string, headers: Record<string, string>, n: string) {
  return fetch(`${url}/api/v3/masterdata/country`, { method: 'POST', headers, body: JSON.stringify({ country_name: `Country ${n}`, sap_country_description: `C-${n}`, state: 1 }) });
}

/** A create whose body is sent in two parts, the second when `finish` is called, over a keep-alive connection. */
function slowCreate(url: string, headers: Record<string, string>, n: string) {
  const body = JSON.stringify({ country_name: `Country ${n}`, sap_country_description: `C-${n}`, state: 1 });
  const agent = new Agent({ keepAlive: true });
  let answered: (v: { status: number; error?: string }) => void;
  const answer = new Promise<{ status: number; error?: string }>((r) => { answered = r; });
  const req = request(`${url}/api/v3/masterdata/country`, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
    res.resume();
    res.on('end', () => answered({ status: res.statusCode ?? 0 }));
  });
  req.on('error', (e) => answered({ status: -1, error: String(e) }));
  req.flushHeaders();
  req.write(body.slice(0, 10));
  return { answer, finish: () => req.end(body.slice(10)) };
}

describe('the server process', () => {
  it('keeps every acknowledged write through kill -9, and on SIGTERM drains in-flight requests and exits cleanly', async () => {
    const first = await spawnServer(env);
    let headers = await signIn(first.url);
    const acked: string[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await createCountry(first.url, headers, `k${i}`);
      expect(r.status).toBe(201);
      acked.push(((await r.json()) as { id: string }).id);
    }
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await spawnServer(env);
    headers = await signIn(second.url);
    for (const id of acked) expect((await fetch(`${second.url}/api/v3/masterdata/country/${id}`, { headers })).status).toBe(200);

    // One more on a keep-alive connection whose body is still coming when SIGTERM arrives (its
    // headers given time to arrive: a connection with no request yet is closed by the drain).
    const slow = slowCreate(second.url, headers, 's0');
    await new Promise((r) => setTimeout(r, 1000));
    // Requests in flight when SIGTERM arrives still get their answer, and what was answered is kept.
    const inflight = Array.from({ length: 30 }, (_, i) => createCountry(second.url, headers, `t${i}`).then(async (r) => ({ status: r.status, body: await r.json() as { id: string } })).catch(() => null));
    await new Promise((r) => setTimeout(r, 5));
    const termAt = Date.now();
    second.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    slow.finish();
    const results = await Promise.all(inflight);
    expect((await slow.answer).status).toBe(201);
    // The drain ends with the last answer: a keep-alive connection busy when it began once held
    // the process until keep-alive timed out (72 s).
    const late = new Promise<string>((r) => setTimeout(() => r('still running 30 s after SIGTERM'), 30_000 - (Date.now() - termAt)).unref());
    const exit = await Promise.race([second.exited, late]);
    if (exit !== 0) second.child.kill('SIGKILL');
    expect(exit).toBe(0);
    const answered = results.filter((r): r is { status: number; body: { id: string } } => r !== null && r.status === 201);
    expect(answered.length).toBeGreaterThan(0);

    const third = await spawnServer(env);
    headers = await signIn(third.url);
    for (const r of answered) expect((await fetch(`${third.url}/api/v3/masterdata/country/${r.body.id}`, { headers })).status).toBe(200);
    const list = await (await fetch(`${third.url}/api/v3/masterdata/country?pageSize=200`, { headers })).json() as { total: number };
    expect(list.total).toBe(acked.length + answered.length + 1);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 120_000);

  it('refuses to start on a broken definition and names the file and pointer', async () => {
    const root = join(dir, 'broken');
    copyDefinitions(process.cwd(), root);
    const plant = JSON.parse(readFileSync(join(root, 'schemas', 'entities', 'plant.json'), 'utf8'));
    plant.fields.find((f: { id: string }) => f.id === 'company').ref = 'compnay';
    writeFileSync(join(root, 'schemas', 'entities', 'plant.json'), JSON.stringify(plant));
    await expect(spawnServer({ ...env, APP_ROOT: root })).rejects.toThrow(/schemas\/entities\/plant\.json:\/fields\/\d+\/ref: reference target "compnay" is not an entity \(did you mean "company"\?\)/);
  }, 60_000);
});

import { openStore } from '../../store/index';
import { spawnServer, type ServerProcess } from '../../testing/process';

/** The embedded store, whatever MONGODB_URI the suite runs with: these tests are about a process on its data directory (so CI's wire step leaves out the files using it, see .ci/run). */
export const ADMIN = { ADMIN_EMAIL: 'crash@test.local', ADMIN_PASSWORD: 'Crash-test-2026', MONGODB_URI: '' };

/** A server process with the import routes and their test settings (IMPORT_MAX_ATTEMPTS…), from entry.ts. */
export function spawnImportServer(env: Record<string, string>): Promise<ServerProcess> {
  return spawnServer(env, { script: 'server/src/imports/entry.ts', timeoutMs: 60_000 });
}

/** Client helpers over fetch for a server process. */
export function client(url: string) {
  let token = '';
  const headers = () => ({ authorization: `Bearer ${token}` });
  return {
    authorization: () => `Bearer ${token}`,
    async signIn(email: string, password: string) {
      const r = await fetch(`${url}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
      if (!r.ok) throw new Error(`sign-in failed: ${r.status} ${await r.text()}`);
      token = ((await r.json()) as { token: string }).token;
    },
    async post(path: string, body: unknown) {
      const r = await fetch(`${url}${path}`, { method: 'POST', headers: { ...headers(), 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const json = (await r.json()) as Record<string, unknown>;
      if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(json)}`);
      return json;
    },
    async get(path: string) {
      const r = await fetch(`${url}${path}`, { headers: headers() });
      return (await r.json()) as Record<string, unknown>;
    },
    /** Uploads a file (a Blob streams from disk) as the multipart `file` field. */
    async upload(fields: Record<string, string>, file: Blob, name: string) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      form.set('file', file, name);
      const r = await fetch(`${url}/api/imports`, { method: 'POST', headers: headers(), body: form });
      const json = (await r.json()) as Record<string, unknown>;
      if (r.status !== 202) throw new Error(`upload: ${r.status} ${JSON.stringify(json)}`);
      return json;
    },
  };
}

/** Seeds, through the API, what material rows reference: a country, company C000001, division DIV-001. */
export async function seedOverApi(c: ReturnType<typeof client>): Promise<void> {
  const country = await c.post('/api/v3/masterdata/country', { country_name: 'Argentina', sap_country_description: 'Argentina' });
  const company = await c.post('/api/v3/masterdata/company', {
    company_name: 'Agroquímica Rosario',
    extensions: { companyInfo: { erp_id: 'C000001', cuit: '30-12345678-9', company_type: 'distributor', state: 1 } },
  });
  await c.post('/api/v3/masterdata/company_division', {
    division_name: 'Planta Rosario', division_type: 'plant', senasa_id_type: 'plantID', erp_id: 'DIV-001', company_id: company.id, country: country.id,
  });
}

/** Polls until probe gives a value (bounded). */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A server on the data directory, the admin signed in. */
export async function signedIn(env: Record<string, string>): Promise<{ server: ServerProcess; c: ReturnType<typeof client> }> {
  const server = await spawnImportServer({ ...ADMIN, ...env });
  const c = client(server.url);
  await c.signIn(ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
  return { server, c };
}

/** The job once it is over (succeeded, failed or rolled back). */
export function settled(c: ReturnType<typeof client>, id: string, ms?: number): Promise<Record<string, unknown>> {
  return until('the job to finish', async () => {
    const j = await c.get(`/api/imports/${id}?pageSize=1`);
    return j.status === 'running' || j.status === 'queued' ? undefined : j;
  }, ms);
}

export async function stopped(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

/** The stored materials and what imports left in the store, read straight from the data directory once the server is gone. */
export async function storedAfter(dataDir: string) {
  const store = await openStore({ dataDir });
  try {
    return {
      materials: await store.find('material', { projection: { name: 1, extensions: 1, createdAt: 1, createdBy: 1 } }),
      undo: await store.count('import_undo', {}),
    };
  } finally {
    await store.close();
  }
}

import { spawnServer, type ServerProcess } from '../../testing/process';

/** A server process with the import routes and their test settings (IMPORT_MAX_ATTEMPTS…), from entry.ts. */
export function spawnImportServer(env: Record<string, string>): Promise<ServerProcess> {
  return spawnServer(env, { script: 'server/src/imports/entry.ts', timeoutMs: 60_000 });
}

/** Client helpers over fetch for a server process. */
export function client(url: string) {
  let token = '';
  const headers = () => ({ authorization: `Bearer ${token}` });
  return {
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

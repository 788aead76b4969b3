/**
 * A server with only the import routes (and the runner, to wait for jobs), for this module's
 * tests, on a store of its own (server/src/testing/harness.ts).
 */
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../../../engine/src/index';
import { buildApp } from '../../app';
import type { Store } from '../../store/types';
import { Sessions } from '../../auth/sessions';
import { openTestStore, realRegistry, testUsers } from '../../testing/harness';
import { importRoutes, type ImportRoutesOptions } from '../../routes/imports';
import type { ImportRunner } from '../runner';

export interface ImportHarness {
  app: FastifyInstance;
  store: Store;
  registry: Registry;
  runner: ImportRunner;
  dir: string;
  userWith(access: string[]): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export async function startImportHarness(options: Partial<ImportRoutesOptions> = {}): Promise<ImportHarness> {
  const registry = options.registry ?? realRegistry();
  const { store, dir, dispose } = await openTestStore(registry, 'tm-imp-');
  const sessions = new Sessions(registry, store);
  let runner!: ImportRunner;
  const app = await buildApp({
    registry, store, authenticator: sessions,
    plugins: [(a) => importRoutes(a, { ...options, registry, store, dir: join(dir, 'imports'), onRunner: (r) => { runner = r; } })],
  });
  await app.ready();
  const users = testUsers(store, sessions, 'imp');
  return {
    app, store, registry, runner, dir,
    async userWith(access) {
      return (await users(access, { display_name: 'Import Tester' })).headers;
    },
    async close() {
      await app.close();
      await dispose();
    },
  };
}

/** A multipart/form-data body with text fields and one file. */
export function multipart(fields: Record<string, string>, file?: { name: string; content: string | Buffer; field?: string }): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----tm${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n`));
    parts.push(typeof file.content === 'string' ? Buffer.from(file.content) : file.content);
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Seeds what material rows reference: a country, a company (erp_id C000001) and a plant division (DIV-001). */
export async function seedReferences(store: Store): Promise<{ company: string; division: string; country: string }> {
  const meta = { createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z', createdBy: 'seed', updatedBy: 'seed' };
  const country = await store.insert('country', { country_name: 'Argentina', sap_country_description: 'Argentina', state: 1, ...meta });
  const company = await store.insert('company', {
    company_name: 'Agroquímica Rosario', state: 1,
    extensions: { companyInfo: { erp_id: 'C000001', cuit: '30-12345678-9', company_type: 'distributor', state: 1 } }, ...meta,
  });
  const division = await store.insert('company_division', {
    division_name: 'Planta Rosario', division_type: 'plant', senasa_id_type: 'plantID', erp_id: 'DIV-001',
    company_id: company.id, country: country.id, state: 1, ...meta,
  });
  return { company: company.id, division: division.id, country: country.id };
}

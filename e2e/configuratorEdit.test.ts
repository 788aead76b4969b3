import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '../engine/src/index';
import { copyDefinitions, loadDefinitions } from '../definitions/read';
import { startHarness, type Harness } from '../server/src/testing/harness';
import { aCompany } from '../server/src/testing/records';
import { columnsOf } from '../engine/src/list/index';
import { buildForm, visibleMessages } from '../web/src/masterdata/formSchema';

/**
 * Issue 6, point 6: a configurator adds a field to an extension JSON file and restarts the
 * server; the field is in the form and the list, validated, with no code change.
 */
const FIELD = {
  id: 'certification4',
  label: { en: 'Certification 4', es: 'Certificación 4', fr: 'Certification 4' },
  type: 'string',
  pattern: '^ISO [0-9]+$',
};
const PATH = 'extensions.companyCertification.certification4';

let root: string;
let registry: Registry;
let h: Harness;
let headers: Record<string, string>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tm-configurator-'));
  copyDefinitions(process.cwd(), root);
  const file = join(root, 'schemas', 'extensions', 'companyCertification.json');
  const ext = JSON.parse(readFileSync(file, 'utf8')) as { fields: unknown[] };
  ext.fields.push(FIELD);
  writeFileSync(file, JSON.stringify(ext, null, 2));
  const loaded = loadDefinitions(root);
  expect(loaded.problems).toEqual([]);
  registry = loaded.registry!;
  h = await startHarness({ registry }); // "restarting the server" on the edited definitions
  headers = (await h.userWith(['Master Data'])).headers;
});
afterAll(async () => {
  await h?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("a configurator's new extension field", () => {
  it('is in the form the web builds, labelled in each language, with its widget', () => {
    for (const [lang, title] of [['en', 'Certification 4'], ['es', 'Certificación 4']] as const) {
      const f = buildForm(registry, 'company', lang, 'create')!;
      const ext = ((f.schema.properties as Record<string, any>).extensions.properties.companyCertification);
      expect(ext.properties.certification4).toMatchObject({ type: 'string', title, pattern: FIELD.pattern });
      expect((f.uiSchema as Record<string, any>).extensions.companyCertification.certification4['ui:widget']).toBe('text');
    }
  });

  it('is a column of the list, offered in the column picker', () => {
    expect(columnsOf(registry, 'company', 'en').find((c) => c.path === PATH)).toMatchObject({ label: 'Certification 4', optional: true });
  });

  it('is validated with the same message in the browser and by the API, and stored when valid', async () => {
    const { companyInfo } = aCompany('Configured Co').extensions as Record<string, unknown>;
    const bad = { company_name: 'Configured Co', state: 1, extensions: { companyInfo, companyCertification: { certification4: 'ABC' } } };
    const inBrowser = visibleMessages(buildForm(registry, 'company', 'en', 'create')!.validate(bad), true);
    const message = 'Certification 4 : ABC does not match the required format';
    expect(inBrowser).toContainEqual({ field: PATH, message });

    const refused = await h.app.inject({ method: 'POST', url: '/api/v3/masterdata/company', headers, payload: bad });
    expect(refused.statusCode).toBe(400);
    expect((refused.json() as { error: { details: unknown[] } }).error.details).toContainEqual(expect.objectContaining({ field: PATH, message }));

    const ok = { ...bad, extensions: { companyInfo, companyCertification: { certification4: 'ISO 14001' } } };
    expect(visibleMessages(buildForm(registry, 'company', 'en', 'create')!.validate(ok), true)).toEqual([]);
    const created = await h.app.inject({ method: 'POST', url: '/api/v3/masterdata/company', headers, payload: ok });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    const back = (await h.app.inject({ method: 'GET', url: `/api/v3/masterdata/company/${id}`, headers })).json() as Record<string, any>;
    expect(back.extensions.companyCertification.certification4).toBe('ISO 14001');
  });
});

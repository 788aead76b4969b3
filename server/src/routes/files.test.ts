import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../imports/testing/harness';
import { startWithPlugins, type PluginHarness } from '../testing/withPlugins';
import { fileRoutes } from './files';

let h: PluginHarness;
let headers: Record<string, string>;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
// Real files, as a browser makes them (Chromium's screenshot and print to PDF).
const fixture = (name: string) => readFileSync(new URL(`../files/fixtures/${name}`, import.meta.url));
const REAL = { png: fixture('photo.png'), jpg: fixture('photo.jpg'), pdf: fixture('certificate.pdf') };
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);

beforeAll(async () => {
  h = await startWithPlugins(({ registry, store, config }) => [(a) => fileRoutes(a, { registry, store, config })]);
  headers = await h.userWith(['Master Data']);
});
afterAll(async () => h?.close());

function upload(field: string, name: string, content: Buffer, extra: Record<string, string> = headers, entity = 'company') {
  const body = multipart({ entity, field }, { name, content });
  return h.app.inject({ method: 'POST', url: '/api/files', payload: body.payload, headers: { ...extra, ...body.headers } });
}

describe('file uploads', () => {
  it('stores a PDF certification and gives it back', async () => {
    const res = await upload('extensions.uploadCertification.certifications', 'cert.pdf', PDF);
    expect(res.statusCode, res.body).toBe(201);
    const stored = res.json() as { id: string; name: string; size: number; contentType: string };
    expect(stored).toMatchObject({ name: 'cert.pdf', size: PDF.length, contentType: 'application/pdf' });
    const back = await h.app.inject({ method: 'GET', url: `/api/files/${stored.id}`, headers });
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(PDF)).toBe(true);
  });

  it('accepts real PNG and JPEG images and a real PDF, and stores the type their bytes show', async () => {
    const image = 'extensions.productImage.image';
    for (const [name, content, type] of [['photo.png', REAL.png, 'image/png'], ['photo.jpg', REAL.jpg, 'image/jpeg'], ['photo.jpeg', REAL.jpg, 'image/jpeg'], ['untitled', REAL.png, 'image/png']] as const) {
      const res = await upload(image, name, content, headers, 'material');
      expect(res.statusCode, `${name}: ${res.body}`).toBe(201);
      expect(res.json()).toMatchObject({ name, size: content.length, contentType: type });
    }
    const res = await upload('extensions.uploadCertification.certifications', 'certificate.pdf', REAL.pdf);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ contentType: 'application/pdf' });
    // The PDF is not an image, whatever its name says.
    expect((await upload(image, 'certificate.png', REAL.pdf, headers, 'material')).statusCode).toBe(400);
  });

  it('refuses a text file renamed to look like an image or a PDF, with the FILE_TYPE message', async () => {
    const text = Buffer.from('company_name,city\nAgro Norte,Rosario\n');
    for (const [field, entity, name, accepted] of [
      ['extensions.productImage.image', 'material', 'photo.png', 'image/png, image/jpeg'],
      ['extensions.productImage.image', 'material', 'photo.jpg', 'image/png, image/jpeg'],
      ['extensions.uploadCertification.certifications', 'company', 'certificate.pdf', 'application/pdf'],
    ] as const) {
      const res = await upload(field, name, text, headers, entity);
      const label = field === 'extensions.productImage.image' ? 'Image' : 'Certification documents';
      expect(res.statusCode, name).toBe(400);
      const err = (res.json() as { error: { details: { field: string; message: string; code: string }[] } }).error;
      expect(err.details).toEqual([{ field, code: 'FILE_TYPE', message: `${label} : only ${accepted} files are accepted` }]);
    }
  });

  it('refuses a non-PDF for a PDF-only field, at the field, even when named .pdf', async () => {
    for (const [name, content] of [['photo.png', PNG], ['disguised.pdf', PNG], ['notes.pdf', Buffer.from('hello')]] as const) {
      const res = await upload('extensions.uploadCertification.certifications', name, content);
      expect(res.statusCode, name).toBe(400);
      const err = (res.json() as { error: { details: { field: string; message: string }[] } }).error;
      expect(err.details[0]).toMatchObject({ field: 'extensions.uploadCertification.certifications' });
      expect(err.details[0].message).toContain('application/pdf');
    }
  });

  it('applies the field size limit and refuses fields that are not files', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]);
    const res = await h.app.inject({ method: 'POST', url: '/api/files', ...(() => { const b = multipart({ entity: 'user', field: 'photo' }, { name: 'me.png', content: big }); return { payload: b.payload, headers: { ...headers, ...b.headers } }; })() });
    expect([403, 413]).toContain(res.statusCode); // user photos need the User Management key first
    const admin = await h.userWith(['superadmin']);
    const tooBig = multipart({ entity: 'user', field: 'photo' }, { name: 'me.png', content: big });
    expect((await h.app.inject({ method: 'POST', url: '/api/files', payload: tooBig.payload, headers: { ...admin, ...tooBig.headers } })).statusCode).toBe(413);
    expect((await upload('company_name', 'a.pdf', PDF)).statusCode).toBe(400);
  });

  it('needs the entity access key to upload and to download', async () => {
    const other = await h.userWith(['Reports']);
    expect((await upload('extensions.uploadCertification.certifications', 'cert.pdf', PDF, other)).statusCode).toBe(403);
    const ok = (await upload('extensions.uploadCertification.certifications', 'cert.pdf', PDF)).json() as { id: string };
    expect((await h.app.inject({ method: 'GET', url: `/api/files/${ok.id}`, headers: other })).statusCode).toBe(403);
    expect((await h.app.inject({ method: 'GET', url: '/api/files/000000000000000000000000', headers })).statusCode).toBe(404);
  });
});

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskFileStore, gridFsFileStore, openFileStore, type FileMeta, type FileStore } from './fileStore';

const MONGODB_URI = process.env.MONGODB_URI;

const meta = (name: string, size: number): Omit<FileMeta, 'id'> => ({
  name, size, contentType: 'application/pdf', entity: 'company', field: 'extensions.uploadCertification.certifications',
  uploadedBy: 'u1', uploadedAt: '2026-05-01T10:00:00.000Z',
});

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** What every file store must do, whichever adapter: the same suite runs on disk and on GridFS. */
function fileStoreContract(open: () => Promise<FileStore>): void {
  let files: FileStore;
  beforeAll(async () => { files = await open(); });
  afterAll(async () => files?.close());

  it('gives back the bytes and the metadata it was given, under a new 24-hex id', async () => {
    const content = Buffer.from('%PDF-1.4\nhello\n%%EOF\n');
    const stored = await files.put(meta('cert.pdf', content.length), content);
    expect(stored.id).toMatch(/^[a-f0-9]{24}$/);
    expect(stored).toMatchObject(meta('cert.pdf', content.length));
    const found = await files.get(stored.id);
    expect(found?.meta).toEqual(stored);
    expect((await read(found!.stream())).equals(content)).toBe(true);
    // A stream can be opened again (a second download).
    expect((await read(found!.stream())).equals(content)).toBe(true);
  });

  it('keeps a file larger than one storage chunk whole, and files apart from each other', async () => {
    const big = randomBytes(700 * 1024);
    const small = Buffer.from('second');
    const [a, b] = [await files.put(meta('big.pdf', big.length), big), await files.put(meta('small.pdf', small.length), small)];
    expect(a.id).not.toBe(b.id);
    expect((await read((await files.get(a.id))!.stream())).equals(big)).toBe(true);
    expect((await read((await files.get(b.id))!.stream())).toString()).toBe('second');
  });

  it('answers null for an unknown id and for anything that is not an id', async () => {
    expect(await files.get('0123456789abcdef01234567')).toBeNull();
    for (const bad of ['', '../../etc/passwd', 'ABCDEF0123456789ABCDEF01', '{"$ne":null}', 'a'.repeat(25)]) expect(await files.get(bad), bad).toBeNull();
  });
}

describe('file store on disk (the embedded store)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  fileStoreContract(async () => diskFileStore(dir));

  it('keeps the bytes and the metadata under DATA_DIR/files', async () => {
    const files = await openFileStore({ dataDir: dir });
    const stored = await files.put(meta('x.pdf', 3), Buffer.from('abc'));
    expect(readdirSync(join(dir, 'files'))).toEqual(expect.arrayContaining([stored.id, `${stored.id}.json`]));
  });
});

// Runs over MongoDB when MONGODB_URI is set: in CI, against the wire server (.ci/run).
describe.runIf(MONGODB_URI)('file store in GridFS (MongoDB)', () => {
  const database = `t_files_${randomBytes(5).toString('hex')}`;
  const uri = (() => {
    if (!MONGODB_URI) return '';
    const u = new URL(MONGODB_URI);
    u.pathname = `/${database}`;
    return u.toString();
  })();
  let client: MongoClient;
  beforeAll(async () => { client = await new MongoClient(uri).connect(); });
  afterAll(async () => {
    await client?.db(database).dropDatabase().catch(() => undefined);
    await client?.close();
  });

  fileStoreContract(() => gridFsFileStore(uri));

  it('is what the server opens on MongoDB, and writes to the bucket `files` of the deployment database', async () => {
    const files = await openFileStore({ dataDir: '/nonexistent-never-written', mongodbUri: uri });
    try {
      const content = randomBytes(300 * 1024);
      const stored = await files.put(meta('scan.pdf', content.length), content);
      const db = client.db(database);
      const doc = await db.collection('files.files').findOne({ filename: 'scan.pdf' });
      expect(doc?._id.toHexString()).toBe(stored.id);
      expect(doc?.length).toBe(content.length);
      expect(doc?.metadata).toMatchObject({ entity: 'company', uploadedBy: 'u1', size: content.length });
      // Stored in GridFS chunks (255 KiB each by default), not on disk.
      expect(await db.collection('files.chunks').countDocuments({ files_id: doc!._id })).toBe(2);
      expect((await read((await files.get(stored.id))!.stream())).equals(content)).toBe(true);
    } finally {
      await files.close();
    }
  });
});

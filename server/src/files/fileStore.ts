import { createReadStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface FileMeta {
  id: string;
  name: string;
  size: number;
  contentType: string;
  entity: string;
  field: string;
  uploadedBy: string;
  uploadedAt: string;
}

/** Where uploaded files live: one interface, a directory on the embedded store, GridFS on MongoDB. */
export interface FileStore {
  put(meta: Omit<FileMeta, 'id'>, content: Buffer): Promise<FileMeta>;
  get(id: string): Promise<{ meta: FileMeta; stream: () => Readable } | null>;
  close(): Promise<void>;
}

const ID_RE = /^[a-f0-9]{24}$/;
export const isFileId = (id: string) => ID_RE.test(id);
const newId = () => randomBytes(12).toString('hex');

/** Files under `DATA_DIR/files`: the bytes as `<id>` and the metadata as `<id>.json`. */
export function diskFileStore(dataDir: string): FileStore {
  const dir = join(dataDir, 'files');
  return {
    async put(meta, content) {
      await mkdir(dir, { recursive: true });
      const full: FileMeta = { id: newId(), ...meta };
      await writeFile(join(dir, full.id), content, { flag: 'wx' });
      await writeFile(join(dir, `${full.id}.json`), JSON.stringify(full));
      return full;
    },
    async get(id) {
      if (!isFileId(id)) return null;
      let meta: FileMeta;
      try {
        meta = JSON.parse(await readFile(join(dir, `${id}.json`), 'utf8')) as FileMeta;
      } catch {
        return null;
      }
      return { meta, stream: () => createReadStream(join(dir, id)) };
    },
    async close() {},
  };
}

/**
 * Files in GridFS (bucket `files`) on the deployment's MongoDB. The Store interface does not
 * expose its database, so this adapter opens its own client from MONGODB_URI.
 */
export async function gridFsFileStore(uri: string): Promise<FileStore> {
  const { MongoClient, GridFSBucket, ObjectId } = await import('mongodb');
  const client = await new MongoClient(uri).connect();
  const bucket = new GridFSBucket(client.db(), { bucketName: 'files' });
  return {
    async put(meta, content) {
      const id = new ObjectId();
      await new Promise<void>((resolve, reject) => {
        const up = bucket.openUploadStreamWithId(id, meta.name, { metadata: meta });
        up.once('finish', () => resolve());
        up.once('error', reject);
        up.end(content);
      });
      return { id: id.toHexString(), ...meta };
    },
    async get(id) {
      if (!isFileId(id)) return null;
      const oid = new ObjectId(id);
      const [doc] = await bucket.find({ _id: oid }).limit(1).toArray();
      if (!doc) return null;
      return { meta: { ...(doc.metadata as Omit<FileMeta, 'id'>), id }, stream: () => bucket.openDownloadStream(oid) };
    },
    async close() {
      await client.close();
    },
  };
}

export async function openFileStore(config: { dataDir: string; mongodbUri?: string }): Promise<FileStore> {
  return config.mongodbUri ? gridFsFileStore(config.mongodbUri) : diskFileStore(config.dataDir);
}

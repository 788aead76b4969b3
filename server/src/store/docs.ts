/** Document helpers shared by both adapters, so the behaviour they define cannot drift apart. */
import { Query } from 'mingo';
import { newId } from './ids.js';
import { StoreError, type Doc, type JsonValue, type Projection, type StoredDoc } from './types.js';
import { isPlainObject, isScalar, validateDocument, validatePath, validateProjection } from './validate.js';

/** A deep copy of validated JSON: a JSON round trip is exact for it and faster than structuredClone. */
export function copyJson<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Validates and returns a fresh copy carrying an id (generated when absent). */
export function prepareDoc(doc: unknown): StoredDoc {
  return prepareDocText(doc).doc;
}

/**
 * prepareDoc, with the copy's JSON text (what the embedded store writes): the document is
 * stringified once, where a copy and then its text would stringify it twice.
 */
export function prepareDocText(input: unknown): { doc: StoredDoc; text: string } {
  validateDocument(input);
  const text = JSON.stringify(input);
  const copy = JSON.parse(text) as Doc;
  if (copy.id !== undefined) return { doc: copy as StoredDoc, text };
  const id = newId(); // ULID characters: nothing to escape
  return { doc: { id, ...copy } as StoredDoc, text: text === '{}' ? `{"id":"${id}"}` : `{"id":"${id}",${text.slice(1)}` };
}

/** For update(): the id in the path wins; a different id in the body is a caller error. */
export function prepareReplacement(id: string, doc: unknown): StoredDoc {
  validateDocument(doc);
  if (doc.id !== undefined && doc.id !== id) throw new StoreError('INVALID_DOCUMENT', 'the id of a document cannot change');
  const { id: _ignored, ...rest } = copyJson(doc) as Doc;
  return { id, ...rest } as StoredDoc;
}

export function getPath(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const seg of path.split('.')) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[seg];
  }
  return cur;
}

/** Applies patch() sets to a copy; intermediate objects are created, `undefined` removes. */
export function applySet(doc: StoredDoc, set: Record<string, JsonValue | undefined>): StoredDoc {
  if (!isPlainObject(set)) throw new StoreError('INVALID_ARGUMENT', 'patch needs an object of paths');
  const out = structuredClone(doc);
  for (const [path, value] of Object.entries(set)) {
    validatePath(path, 'INVALID_ARGUMENT');
    if (path === 'id' || path.startsWith('id.')) throw new StoreError('INVALID_DOCUMENT', 'the id of a document cannot change');
    const segs = path.split('.');
    let cur: Record<string, unknown> = out;
    for (const seg of segs.slice(0, -1)) {
      const next = cur[seg];
      if (next === undefined) {
        if (value === undefined) break;
        cur[seg] = {};
      } else if (!isPlainObject(next)) {
        throw new StoreError('INVALID_ARGUMENT', `cannot set ${path}: ${seg} is not an object`);
      }
      cur = cur[seg] as Record<string, unknown>;
    }
    const last = segs[segs.length - 1];
    if (value === undefined) delete cur[last];
    else cur[last] = structuredClone(value);
  }
  validateDocument(out);
  return out;
}

/** Key order does not matter for "unchanged" in upserts: JSON objects are unordered. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}

/** The values at keyPaths, which must all be present scalars for a document to be matched by key. */
export function keyValues(doc: Doc, keyPaths: string[]): (string | number | boolean)[] {
  return keyPaths.map((p) => {
    const v = getPath(doc, p);
    if (!isScalar(v) || v === null) throw new StoreError('INVALID_DOCUMENT', `upsert key ${p} must be a string, number or boolean`, [p]);
    return v;
  });
}

/**
 * Projection runs in JS for both stores (MongoDB's own would keep `_id` semantics and differ in
 * edge cases); mingo implements MongoDB's projection rules, with `id` playing the part of `_id`.
 */
export function project(docs: StoredDoc[], projection: Projection | undefined): StoredDoc[] {
  if (!projection || Object.keys(projection).length === 0) return docs;
  validateProjection(projection);
  const q = new Query({}, { idKey: 'id' });
  return q.find(docs, projection).all() as StoredDoc[];
}

/** Dotted paths (array positions dropped) at which this document holds an array. */
export function arrayPaths(doc: unknown, prefix = '', out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(doc)) {
    if (prefix) out.add(prefix);
    for (const x of doc) if (typeof x === 'object' && x !== null) arrayPaths(x, prefix, out);
  } else if (isPlainObject(doc)) {
    // Called on every written document: no Object.entries arrays, only object values descended.
    for (const k in doc) {
      const v = doc[k];
      if (typeof v === 'object' && v !== null) arrayPaths(v, prefix ? `${prefix}.${k}` : k, out);
    }
  }
  return out;
}

/**
 * Pieces of the MongoDB adapter that translate between the store's model and MongoDB's:
 * `id` <-> `_id`, the hidden unique-key fields, pipeline rewriting and error mapping.
 */
import { getPath } from './docs.js';
import { StoreError, type Filter, type Pipeline, type SortSpec, type StoredDoc } from './types.js';
import { isPlainObject } from './validate.js';

/** Hidden fields; validate.ts refuses them in documents, filters and pipelines. */
export const HIDDEN = ['_id', '_uk', '_rev'] as const;

/** Name of a unique key, used in the hidden field `_uk.<name>` and the index `uk:<name>`. */
export function keyName(paths: string[]): string {
  return paths.map((p) => p.replace(/\./g, ':')).join('+');
}

export function pathsOfKeyName(name: string): string[] {
  return name.split('+').map((p) => p.replace(/:/g, '.'));
}

/**
 * Unique keys are enforced on a hidden field holding the key's values as one string, present only
 * when every part is present and not null, under a sparse unique index. That reproduces SQLite's
 * rule (a NULL part never collides) exactly, for compound keys too, and also on servers that
 * ignore partialFilterExpression (mongo-java-server does), where a plain unique index would make
 * every document lacking the field collide with the next one.
 */
export function uniqueFields(doc: StoredDoc, keys: string[][]): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const key of keys) {
    const values = key.map((p) => getPath(doc, p));
    if (values.some((v) => v === undefined || v === null)) continue;
    (out ??= {})[keyName(key)] = JSON.stringify(values);
  }
  return out;
}

export function toMongo(doc: StoredDoc, keys: string[][], rev: string): Record<string, unknown> {
  const uk = uniqueFields(doc, keys);
  return { _id: doc.id, ...doc, ...(uk ? { _uk: uk } : {}), _rev: rev };
}

export function fromMongo(raw: Record<string, unknown>): StoredDoc {
  const { _id, _uk, _rev, ...doc } = raw;
  return doc as StoredDoc;
}

/** `id` is also stored as `_id`; filtering on `_id` uses the primary index. */
export function idToMongo(filter: Filter): Filter {
  const out: Filter = {};
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' || k === '$or' || k === '$nor') out[k] = (v as Filter[]).map(idToMongo);
    else out[k === 'id' ? '_id' : k] = v;
  }
  return out;
}

/** Sort as ordered pairs (object keys that look like integers would be reordered), ties by id. */
export function sortToMongo(sort: SortSpec | undefined): [string, 1 | -1][] {
  const pairs = Object.entries(sort ?? {}).map(([k, d]) => [k === 'id' ? '_id' : k, d] as [string, 1 | -1]);
  if (!pairs.some(([k]) => k === '_id')) pairs.push(['_id', 1]);
  return pairs;
}

const STRIP = { $project: { _id: 0, _uk: 0, _rev: 0 } };

function stripLookups(pipeline: Pipeline): Pipeline {
  const out: Pipeline = [];
  for (const stage of pipeline) {
    if (isPlainObject(stage.$lookup)) {
      const l = stage.$lookup as { from: string; localField: string; foreignField: string; as: string };
      out.push({ $lookup: { ...l, foreignField: l.foreignField === 'id' ? '_id' : l.foreignField } });
      // Joined documents come straight from the foreign collection: hide its internals too.
      out.push({ $project: { [`${l.as}._id`]: 0, [`${l.as}._uk`]: 0, [`${l.as}._rev`]: 0 } });
    } else if (isPlainObject(stage.$facet)) {
      const facet = stage.$facet as Record<string, Pipeline>;
      out.push({ $facet: Object.fromEntries(Object.entries(facet).map(([k, sub]) => [k, stripLookups(sub)])) });
    } else {
      out.push(stage);
    }
  }
  return out;
}

/**
 * Leading $match stages stay first (so MongoDB can use indexes) with `id` mapped to `_id`; then
 * the hidden fields are projected away so later stages see exactly the documents SQLite's
 * mingo sees.
 */
export function pipelineToMongo(pipeline: Pipeline): Pipeline {
  let i = 0;
  const out: Pipeline = [];
  while (i < pipeline.length && isPlainObject(pipeline[i].$match)) {
    out.push({ $match: idToMongo(pipeline[i].$match as Filter) });
    i++;
  }
  out.push(STRIP);
  return out.concat(stripLookups(pipeline.slice(i)));
}

/** Maps a MongoDB duplicate-key error to StoreError DUPLICATE_KEY naming the key's paths. */
export function translateMongoError(e: unknown, coll: string): never {
  const err = e as { code?: number; errmsg?: string; message?: string; keyPattern?: Record<string, unknown>; writeErrors?: { code?: number; errmsg?: string }[] };
  const we = err.writeErrors?.[0];
  const code = err.code ?? we?.code;
  if (code === 11000 || we?.code === 11000) {
    const msg = we?.errmsg ?? err.errmsg ?? err.message ?? '';
    const pattern = err.keyPattern ? Object.keys(err.keyPattern)[0] : undefined;
    const index = /index: (\S+)/.exec(msg)?.[1];
    let fields = ['id'];
    if (pattern?.startsWith('_uk.')) fields = pathsOfKeyName(pattern.slice(4));
    else if (index?.startsWith('uk:')) fields = pathsOfKeyName(index.slice(3));
    const what = fields[0] === 'id' && fields.length === 1 ? 'id' : `value for ${fields.join(' + ')}`;
    throw new StoreError('DUPLICATE_KEY', `duplicate ${what} in ${coll}`, fields, { cause: e });
  }
  throw e;
}

import { createHash } from 'node:crypto';
import type { Store } from '../store/types';

/**
 * A digest of every document of the named collections (sorted by id), to prove a refused
 * request changed nothing. The collections are read all at once, not one after another: a
 * fuzz test takes a digest after each of thousands of requests, and on MongoDB each read is a
 * round trip, so a hundred reads in a row made the wire run of a fuzz test take minutes. The
 * digest is the same as reading them in turn: it hashes each collection's name and documents
 * in the order given.
 */
export async function storeDigest(store: Store, names: readonly string[], extra = ''): Promise<string> {
  const contents = await Promise.all(names.map((name) => store.find(name, { sort: { id: 1 } })));
  const hash = createHash('sha256');
  names.forEach((name, i) => hash.update(name).update(JSON.stringify(contents[i])));
  return hash.update(extra).digest('hex');
}

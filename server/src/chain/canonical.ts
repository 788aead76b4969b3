import canonicalize from 'canonicalize';
import { hash } from 'node:crypto';

type Rec = Record<string, unknown>;
type Writer = (o: Rec) => string;

/**
 * An object shape's writer: its keys sorted once (RFC 8785 sorts by UTF-16 code units, as
 * Array#sort does), then one concatenation per key, each value through canonicalJson. Made with
 * `new Function` so that each shape's reads are plain property loads (as objectBuilder in
 * store/sqlite-objects.ts); names are written as JSON string literals, so any key is code-safe.
 */
function shapeWriter(keys: readonly string[]): Writer {
  const parts = [...keys].sort().map((k, i) => `${JSON.stringify(`${i === 0 ? '' : ','}${JSON.stringify(k)}:`)} + c(o[${JSON.stringify(k)}])`);
  return new Function('c', `return (o) => '{' + ${parts.length ? parts.join(' + ') : "''"} + '}';`)(canonicalJson) as Writer;
}

/** The shapes met last, newest first: a verify meets a few shapes a million times over. */
const shapes: { keys: string[]; write: Writer }[] = [];
const SHAPES = 16;

function writerOf(keys: string[]): Writer {
  for (const s of shapes) {
    if (s.keys.length !== keys.length) continue;
    let same = true;
    for (let i = 0; i < keys.length && same; i++) same = s.keys[i] === keys[i];
    if (same) return s.write;
  }
  const write = shapeWriter(keys);
  shapes.unshift({ keys, write });
  if (shapes.length > SHAPES) shapes.pop();
  return write;
}

/**
 * A value's canonical JSON (RFC 8785, JCS): object keys sorted, no whitespace, numbers in
 * ECMAScript's form; a non-finite number has no form and throws.
 *
 * The `canonicalize` library is the reference and handles every value; what a parsed JSON
 * document holds (plain objects without undefined values, arrays without holes, strings, finite
 * numbers, booleans, null) takes a faster way to the same text: each object shape's keys are
 * sorted once, not once per object. The library sorted and concatenated per object, and was a
 * fifth of a ledger verify's time at a million events (docs/chain.md, Speed). canonical.test.ts compares
 * the two on random values.
 */
export function canonicalJson(v: unknown): string {
  switch (typeof v) {
    case 'string': case 'boolean': return JSON.stringify(v);
    case 'number': if (Number.isFinite(v)) return JSON.stringify(v); break;
    case 'object': {
      if (v === null) return 'null';
      if (Array.isArray(v)) {
        let text = '[';
        for (let i = 0; i < v.length; i++) {
          const x: unknown = v[i];
          if (!plain(x)) return library(v); // a hole, undefined, a symbol or a function: the library's way
          text += i === 0 ? canonicalJson(x) : `,${canonicalJson(x)}`;
        }
        return `${text}]`;
      }
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) break; // a Date, a class: toJSON and the like
      const o = v as Rec;
      if (typeof o.toJSON === 'function') break;
      const keys = Object.keys(o);
      for (const k of keys) if (!plain(o[k]) || k === '__proto__') return library(v);
      return writerOf(keys)(o);
    }
    default: break;
  }
  return library(v);
}

/** Not undefined, a symbol or a function: what the library drops from objects or writes otherwise. */
const plain = (x: unknown): boolean => x !== undefined && typeof x !== 'symbol' && typeof x !== 'function';

const library = (v: unknown): string => canonicalize(v) ?? 'null';

/** One-shot hashing: half the cost of createHash for the short texts a verify hashes by the million. */
export const sha256 = (text: string | Buffer): string => hash('sha256', text, 'hex');

/** The hash a chain entry keeps of its event: the event document as stored, canonical. */
export const eventHash = (doc: unknown): string => sha256(canonicalJson(doc));

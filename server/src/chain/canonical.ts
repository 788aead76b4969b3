import { hash } from 'node:crypto';

/** Keys quoted once: documents of one collection repeat the same few. */
const quotedKeys = new Map<string, string>();
function quoted(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 10_000) quotedKeys.set(k, q);
  }
  return q;
}

/**
 * A value's canonical JSON (RFC 8785, JCS) for the plain JSON the store keeps: object keys
 * sorted by UTF-16 code units (JavaScript's default sort), no whitespace, strings and numbers
 * as JSON.stringify writes them (ECMAScript's number form is the one RFC 8785 prescribes).
 * The npm package `canonicalize` does the same; this stands in until it is a dependency.
 */
export function canonicalJson(v: unknown): string {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return JSON.stringify(v);
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError('canonical JSON has no form for a non-finite number');
      return JSON.stringify(v);
    case 'object':
      break;
    default:
      return 'null';
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + canonicalJson(v[i]);
    return `${out}]`;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  // Most documents come back in the order they were written; sorting only when they are not saves the copy.
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1] > keys[i]) {
      keys.sort();
      break;
    }
  }
  let out = '{';
  for (const k of keys) {
    const x = o[k];
    if (x === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${quoted(k)}:${canonicalJson(x)}`;
  }
  return `${out}}`;
}

/** One-shot hashing: half the cost of createHash for the short texts a verify hashes by the million. */
export const sha256 = (text: string | Buffer): string => hash('sha256', text, 'hex');

/** The hash a chain entry keeps of its event: the event document as stored, canonical. */
export const eventHash = (doc: unknown): string => sha256(canonicalJson(doc));

import { createHash } from 'node:crypto';

/**
 * A value's canonical JSON (RFC 8785, JCS) for the plain JSON the store keeps: object keys
 * sorted by UTF-16 code units (JavaScript's default sort), no whitespace, strings and numbers
 * as JSON.stringify writes them (ECMAScript's number form is the one RFC 8785 prescribes).
 * The npm package `canonicalize` does the same; this stands in until it is a dependency.
 */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number' && !Number.isFinite(v)) throw new TypeError('canonical JSON has no form for a non-finite number');
    return JSON.stringify(v) ?? 'null';
  }
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + canonicalJson(v[i] === undefined ? null : v[i]);
    return `${out}]`;
  }
  const o = v as Record<string, unknown>;
  let out = '{';
  let first = true;
  for (const k of Object.keys(o).sort()) {
    if (o[k] === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(k)}:${canonicalJson(o[k])}`;
    first = false;
  }
  return `${out}}`;
}

export const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** The hash a chain entry keeps of its event: the event document as stored, canonical. */
export const eventHash = (doc: unknown): string => sha256(canonicalJson(doc));

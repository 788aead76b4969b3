import canonicalize from 'canonicalize';
import { hash } from 'node:crypto';

/**
 * A value's canonical JSON (RFC 8785, JCS): object keys sorted, no whitespace, numbers in
 * ECMAScript's form; a non-finite number has no form and throws.
 */
export function canonicalJson(v: unknown): string {
  return canonicalize(v) ?? 'null';
}

/** One-shot hashing: half the cost of createHash for the short texts a verify hashes by the million. */
export const sha256 = (text: string | Buffer): string => hash('sha256', text, 'hex');

/** The hash a chain entry keeps of its event: the event document as stored, canonical. */
export const eventHash = (doc: unknown): string => sha256(canonicalJson(doc));

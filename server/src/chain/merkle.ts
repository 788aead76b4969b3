import { createHash } from 'node:crypto';

const digest = (prefix: number, ...parts: Uint8Array[]) => {
  const h = createHash('sha256').update(Buffer.of(prefix));
  for (const p of parts) h.update(p);
  return h.digest();
};

/**
 * The Merkle root of entry hashes (hex), as RFC 6962 builds one: leaves and inner nodes hashed
 * with different prefixes (0x00, 0x01), so a leaf can never pass for a node; a level's odd last
 * node goes up as it is. Hex, like the hashes.
 */
export function merkleRoot(hashes: readonly string[]): string {
  return merkleRootOf(Buffer.from(hashes.join(''), 'hex'), 0, hashes.length);
}

/** merkleRoot of `count` hashes held as 32 bytes each in `bytes`, from the `from`-th. */
export function merkleRootOf(bytes: Uint8Array, from: number, count: number): string {
  if (count <= 0) throw new RangeError('a Merkle root needs one entry at least');
  let level: Buffer[] = [];
  for (let i = from; i < from + count; i++) level.push(digest(0, bytes.subarray(i * 32, i * 32 + 32)));
  while (level.length > 1) {
    const up: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) up.push(i + 1 < level.length ? digest(1, level[i], level[i + 1]) : level[i]);
    level = up;
  }
  return level[0].toString('hex');
}

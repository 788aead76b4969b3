import { createHash } from 'node:crypto';

const digest = (prefix: number, ...parts: Buffer[]) => {
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
  if (hashes.length === 0) throw new RangeError('a Merkle root needs one entry at least');
  let level: Buffer[] = hashes.map((h) => digest(0, Buffer.from(h, 'hex')));
  while (level.length > 1) {
    const up: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) up.push(i + 1 < level.length ? digest(1, level[i], level[i + 1]) : level[i]);
    level = up;
  }
  return level[0].toString('hex');
}

import { randomBytes } from 'node:crypto';

// Crockford base32: ids compare in time order as plain strings (byte order = creation order),
// on both stores, so "sort by id" means "sort by creation" and index appends stay sequential.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

let lastTime = -1;
let lastRandom: number[] = [];

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function freshRandom(): number[] {
  const bytes = randomBytes(16);
  return Array.from({ length: 16 }, (_, i) => bytes[i] % 32);
}

/** Increments the random part so ids made within one millisecond still sort in creation order. */
function increment(digits: number[]): number[] {
  const next = digits.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] < 31) {
      next[i]++;
      return next;
    }
    next[i] = 0;
  }
  return freshRandom(); // 32^16 ids in one millisecond: unreachable in practice
}

/** A ULID (26 characters): 48-bit millisecond time then 80 random bits, monotonic per process. */
export function newId(now: number = Date.now()): string {
  if (now <= lastTime) {
    lastRandom = increment(lastRandom);
    now = lastTime; // a clock step backwards must not break ordering
  } else {
    lastTime = now;
    lastRandom = freshRandom();
  }
  return encodeTime(now) + lastRandom.map((d) => ALPHABET[d]).join('');
}

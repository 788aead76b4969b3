import { randomBytes } from 'node:crypto';

// Crockford base32: ids compare in time order as plain strings (byte order = creation order),
// on both stores, so "sort by id" means "sort by creation" and index appends stay sequential.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

let lastTime = -1;
let timePart = '';
/** The random part's 16 base32 digits, incremented in place (an import makes thousands of ids a millisecond). */
const digits = new Uint8Array(16);

export function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function freshRandom(): void {
  const bytes = randomBytes(16);
  for (let i = 0; i < 16; i++) digits[i] = bytes[i] % 32;
}

/** Increments the random part so ids made within one millisecond still sort in creation order. */
function increment(): void {
  for (let i = digits.length - 1; i >= 0; i--) {
    if (digits[i] < 31) {
      digits[i]++;
      return;
    }
    digits[i] = 0;
  }
  freshRandom(); // 32^16 ids in one millisecond: unreachable in practice
}

/** A ULID (26 characters): 48-bit millisecond time then 80 random bits, monotonic per process. */
export function newId(now: number = Date.now()): string {
  if (now <= lastTime) {
    increment(); // a clock step backwards must not break ordering: the last time stays
  } else {
    lastTime = now;
    timePart = encodeTime(now);
    freshRandom();
  }
  let out = timePart;
  for (let i = 0; i < 16; i++) out += ALPHABET[digits[i]];
  return out;
}

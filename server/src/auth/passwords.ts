import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { passwordStrength, type Registry } from '../../../engine/src/index';
import { ApiError } from '../apiError';

const KEY_LENGTH = 32;
// N=2^15 costs about 50 ms and 32 MiB per hash on this class of machine: slow for guessing,
// bearable for sign-in. Stored with the hash so it can be raised later without a migration.
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;

function derive(password: string, salt: Buffer, o: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...o, maxmem: 256 * o.N * o.r };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Constant-time comparison; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20) return false;
  const expected = Buffer.from(parts[5], 'base64url');
  const key = await derive(password, Buffer.from(parts[4], 'base64url'), { N, r, p });
  return expected.length === key.length && timingSafeEqual(expected, key);
}

let dummy: Promise<string> | undefined;

/** A hash to verify against when the e-mail is unknown, so timing does not tell accounts apart. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}

/** A new password must be at least SPEC 5's medium strength, by the deployment's thresholds. */
export function requireStrongEnough(reg: Registry, password: string): void {
  const thresholds = reg.deployment.settings.passwordStrength;
  const strength = passwordStrength(password, thresholds);
  if (strength !== 'medium' && strength !== 'strong') throw new ApiError('PASSWORD_TOO_WEAK', { length: thresholds.mediumMinLength });
}

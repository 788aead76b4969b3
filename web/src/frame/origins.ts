import type { FrameAddresses } from '../../../engine/src/index';
import { originOf } from './frameUrl';

/** The origins the shell takes messages from: the configured ones plus the features origin (SPEC 7). */
export function trustedOrigins(frame: Pick<FrameAddresses, 'allowedOrigins' | 'featuresOrigin'>, base?: string): Set<string> {
  const out = new Set<string>();
  for (const o of [...frame.allowedOrigins, frame.featuresOrigin]) {
    const origin = originOf(o, base);
    if (origin && origin !== 'null') out.add(origin);
  }
  return out;
}

/** True only for an exact origin match: no prefixes, no wildcards, never the opaque "null" origin. */
export function isTrustedOrigin(origin: string, trusted: ReadonlySet<string>): boolean {
  return origin !== 'null' && trusted.has(origin);
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COUNT_KEYS } from './logic';

const dir = 'web/src/imports';
const bundle = (lang: string) => JSON.parse(readFileSync(`schemas/i18n/${lang}.json`, 'utf8')) as Record<string, string>;

/** Keys the screens build from a value: every value they can take. */
const built = [
  ...['queued', 'running', 'succeeded', 'failed', 'rolled_back'].map((s) => `import.status.${s}`),
  ...['queued', 'validating', 'applying', 'rolling_back', 'done'].map((p) => `import.phase.${p}`),
  ...COUNT_KEYS.flatMap((k) => [`import.count.would.${k}`, `import.count.did.${k}`, `import.log.${k}`]),
];

describe('import screen texts', () => {
  // A key with plurals (i18next) exists as key_one / key_other.
  it('has every key the screens use in English, Spanish and French', () => {
    const sources = readdirSync(dir).filter((f) => f.endsWith('.tsx')).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    const literal = [...sources.matchAll(/'(import\.[\w.]+)'/g)].map((m) => m[1]);
    expect(literal.length).toBeGreaterThan(40);
    for (const lang of ['en', 'es', 'fr']) {
      const b = bundle(lang);
      expect([...new Set([...literal, ...built])].filter((k) => b[k] === undefined && b[`${k}_other`] === undefined), lang).toEqual([]);
    }
  });
});

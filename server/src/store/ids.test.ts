import { describe, expect, it } from 'vitest';
import { newId } from './ids';

describe('newId', () => {
  it('gives 26 Crockford base32 characters, the first ten the millisecond', () => {
    const id = newId(Date.UTC(2026, 10, 24));
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(newId(Date.UTC(2026, 10, 24) + 1).slice(0, 10) > id.slice(0, 10)).toBe(true);
  });

  it('keeps creation order within one millisecond and across a clock step backwards', () => {
    const t = Date.now() + 60_000;
    const ids = [newId(t), ...Array.from({ length: 5000 }, () => newId(t)), newId(t - 10_000), newId(t - 5)];
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // the backward steps keep the last time
    expect(ids[ids.length - 1].slice(0, 10)).toBe(ids[0].slice(0, 10));
  });
});

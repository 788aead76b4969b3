import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical';

/** What the library, the reference, writes or throws. */
function reference(v: unknown): { text: string } | { threw: true } {
  try {
    return { text: canonicalize(v) ?? 'null' };
  } catch {
    return { threw: true };
  }
}

function ours(v: unknown): { text: string } | { threw: true } {
  try {
    return { text: canonicalJson(v) };
  } catch {
    return { threw: true };
  }
}

// Keys that sort differently as strings and as numbers, that need escaping, outside the BMP,
// that an Object.prototype member shares, and the one JSON.parse makes an own property of.
const KEY = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('9', '10', '-1', 'a"b', 'é', '\u{1F600}', '\u0000', 'toString', 'constructor', 'toJSON', '__proto__'));

describe('canonicalJson', () => {
  it('writes what the canonicalize library writes, for parsed documents of many shapes', () => {
    const doc = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null), tie('object'), tie('array')),
      object: fc.dictionary(KEY, tie('value'), { maxKeys: 8 }),
      array: fc.array(tie('value'), { maxLength: 5 }),
    })).object;
    fc.assert(fc.property(doc, (d) => {
      const parsed = JSON.parse(JSON.stringify(d)) as unknown; // as the store hands it out
      expect(ours(parsed)).toEqual(reference(parsed));
      expect(ours(d)).toEqual(reference(d));
    }), { numRuns: 2000 });
  });

  it('writes what the library writes for what no parse makes: undefined, holes, dates, symbols, functions, non-finite numbers', () => {
    const odd = fc.constantFrom<unknown>(undefined, Number.NaN, Infinity, -0, new Date(0), Symbol('s'), () => 1, Object.create(null), { toJSON: () => ({ b: 1, a: 2 }) }, [1, , 3], new Map());
    fc.assert(fc.property(fc.dictionary(KEY, fc.oneof(odd, fc.string()), { maxKeys: 5 }), fc.array(fc.oneof(odd, fc.integer()), { maxLength: 4 }), (o, a) => {
      for (const v of [o, a, { o, a }, [o, a]]) expect(ours(v)).toEqual(reference(v));
    }), { numRuns: 500 });
  });

  it('keeps one writer per shape apart from another with the same keys in another order, or one key more', () => {
    // The same keys in two orders are two shapes of one sorted text; a key more is another text.
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
    expect(canonicalJson({ a: 2, b: 1 })).toBe('{"a":2,"b":1}');
    expect(canonicalJson({ a: 2, b: 1, c: 0 })).toBe('{"a":2,"b":1,"c":0}');
    expect(canonicalJson({ a: 2 })).toBe('{"a":2}');
    expect(canonicalJson({})).toBe('{}');
    // More shapes than are remembered, then the first again.
    for (let i = 0; i < 40; i++) expect(canonicalJson({ [`k${i}`]: i, a: [i] })).toBe(`{"a":[${i}],"k${i}":${i}}`);
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });
});

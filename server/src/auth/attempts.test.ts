import { describe, expect, it } from 'vitest';
import { AttemptCounter, takeAttempt } from './attempts';

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => { t += ms; } };
}

describe('AttemptCounter', () => {
  it('blocks a key at its limit until the window ends, and tells how long', () => {
    const c = clock();
    const counter = new AttemptCounter({ max: 3, windowMs: 60_000 }, c.now);
    for (let i = 0; i < 3; i++) expect(takeAttempt([[counter, 'a']])).toBe(0);
    expect(takeAttempt([[counter, 'a']])).toBe(60);
    c.advance(59_001);
    expect(takeAttempt([[counter, 'a']])).toBe(1);
    expect(takeAttempt([[counter, 'b']])).toBe(0);
    c.advance(999);
    expect(takeAttempt([[counter, 'a']])).toBe(0);
  });

  it('counts nothing on any key when one of them is over its limit', () => {
    const c = clock();
    const account = new AttemptCounter({ max: 1, windowMs: 1000 }, c.now);
    const address = new AttemptCounter({ max: 5, windowMs: 1000 }, c.now);
    takeAttempt([[account, 'x'], [address, 'ip']]);
    expect(takeAttempt([[account, 'x'], [address, 'ip']])).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) expect(takeAttempt([[account, `y${i}`], [address, 'ip']])).toBe(0);
    expect(address.blockedFor('ip')).toBeGreaterThan(0);
  });

  it('gives an attempt back, and forgets a key when cleared', () => {
    const c = clock();
    const counter = new AttemptCounter({ max: 1, windowMs: 1000 }, c.now);
    counter.add('k');
    expect(counter.blockedFor('k')).toBe(1);
    counter.remove('k');
    expect(counter.blockedFor('k')).toBe(0);
    counter.add('k');
    counter.clear('k');
    expect(counter.blockedFor('k')).toBe(0);
  });

  it('keeps memory bounded whatever keys it is fed', () => {
    const c = clock();
    const counter = new AttemptCounter({ max: 1, windowMs: 1000 }, c.now, 100);
    for (let i = 0; i < 1000; i++) counter.add(`key${i}`);
    expect((counter as unknown as { windows: Map<string, unknown> }).windows.size).toBeLessThanOrEqual(100);
    expect(counter.blockedFor('key999')).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { compiledQuery, timedQuery } from './query';

describe('queries naming the time', () => {
  const now = '2026-03-01T10:00:00.000-03:00';

  it('read $now as the transition time and $today as its day, in plain conditions and inside $expr', () => {
    const q = { customerSince: { $lt: '$now' } };
    expect(timedQuery(q, now).test({ customerSince: '2026-03-01T09:59:59.000-03:00' })).toBe(true);
    expect(timedQuery(q, now).test({ customerSince: '2026-03-01T10:00:01.000-03:00' })).toBe(false);
    const expr = { $expr: { $and: [{ $lte: ['$due', '$today'] }, { $in: ['$today', '$days'] }] } };
    expect(timedQuery(expr, now).test({ due: '2026-03-01', days: ['2026-03-01'] })).toBe(true);
    expect(timedQuery(expr, '2026-02-28T23:00:00.000Z').test({ due: '2026-03-01', days: ['2026-03-01'] })).toBe(false);
  });

  it('leave a query naming no time to the plain compiled one, and the definition untouched', () => {
    const q = { state: 'open', note: '$todayish' };
    expect(timedQuery(q, now)).toBe(compiledQuery(q));
    const rule = { due: { $lt: '$today' } };
    timedQuery(rule, now);
    expect(rule).toEqual({ due: { $lt: '$today' } });
  });
});

import { describe, expect, it } from 'vitest';
import { compiledQuery, timedQuery, transitionQuery } from './query';

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

describe('queries naming the record before the transition', () => {
  it('read $before.<path> from the record as it was, beside $today, and leave the definition untouched', () => {
    const rule = { deposit_id: '$before.deposit_id', since: { $lte: '$today' } };
    const before = { deposit_id: 'customer-deposit' };
    expect(transitionQuery(rule, '2026-03-01T10:00:00Z', before).test({ deposit_id: 'customer-deposit', since: '2026-02-01' })).toBe(true);
    expect(transitionQuery(rule, '2026-03-01T10:00:00Z', before).test({ deposit_id: 'our-deposit', since: '2026-02-01' })).toBe(false);
    // Absent before: null, which matches an absent value only.
    expect(transitionQuery({ customer: '$before.customer' }, '2026-03-01T10:00:00Z', {}).test({})).toBe(true);
    expect(transitionQuery({ customer: '$before.customer' }, '2026-03-01T10:00:00Z', {}).test({ customer: 'c1' })).toBe(false);
    expect(rule.deposit_id).toBe('$before.deposit_id');
  });
});

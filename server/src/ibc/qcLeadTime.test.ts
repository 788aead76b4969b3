import { describe, expect, it } from 'vitest';
import { qcLeadTimePatch } from './qcLeadTime';

describe('an IBC\'s QC lead time', () => {
  it('counts whole days from the day it came back to the day of its QC', () => {
    expect(qcLeadTimePatch({ returnedAt: '2026-03-01T22:30:00.000Z', qcDate: '2026-03-04' })).toEqual({ qcLeadTime: 3 });
    expect(qcLeadTimePatch({ returnedAt: '2026-03-01T08:00:00.000Z', qcDate: '2026-03-01' })).toEqual({ qcLeadTime: 0 });
  });

  it('leaves a current value alone and removes one that no longer holds', () => {
    expect(qcLeadTimePatch({ returnedAt: '2026-03-01T08:00:00.000Z', qcDate: '2026-03-11', qcLeadTime: 10 })).toBeNull();
    // A QC of an earlier cycle, before this return: no lead time for the cycle under way.
    expect(qcLeadTimePatch({ returnedAt: '2026-05-01T08:00:00.000Z', qcDate: '2026-03-11', qcLeadTime: 10 })).toEqual({ qcLeadTime: undefined });
    expect(qcLeadTimePatch({ qcDate: '2026-03-11' })).toBeNull();
  });
});

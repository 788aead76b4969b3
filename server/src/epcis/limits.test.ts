import { describe, expect, it } from 'vitest';
import { readConfig } from '../config';
import { readEpcisLimits } from './limits';

describe('the EPCIS limits', () => {
  it('are 500 events, 1,024 KB and pages of 1,000 unless the environment says otherwise', () => {
    expect(readConfig({}).epcis).toEqual({ captureEvents: 500, captureBytes: 1024 * 1024, maxPerPage: 1000 });
    expect(readEpcisLimits({ EPCIS_CAPTURE_LIMIT: '50', EPCIS_CAPTURE_FILE_SIZE_LIMIT_KB: '64', EPCIS_MAX_PER_PAGE: '200' })).toEqual({ captureEvents: 50, captureBytes: 64 * 1024, maxPerPage: 200 });
  });

  it('refuse a value that is no whole number of at least 1, at start', () => {
    for (const [name, value] of [['EPCIS_CAPTURE_LIMIT', '0'], ['EPCIS_CAPTURE_FILE_SIZE_LIMIT_KB', '1.5'], ['EPCIS_MAX_PER_PAGE', 'many']]) {
      expect(() => readEpcisLimits({ [name]: value }), name).toThrow(name);
    }
  });
});

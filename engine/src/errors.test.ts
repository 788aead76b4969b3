import { describe, expect, it } from 'vitest';
import { ERRORS, formatError, templateFor } from './errors';

describe('engine messages that count', () => {
  // Issue 14 item 10: no message says "(s)"; it picks the plural form by count.
  it('says one problem or several, one row or several', () => {
    expect(formatError('VALIDATION_FAILED', { entity: 'company', count: 1 })).toBe('The company record is not valid: 1 problem');
    expect(formatError('VALIDATION_FAILED', { entity: 'company', count: 3 })).toBe('The company record is not valid: 3 problems');
    expect(formatError('IMPORT_REJECTED', { count: 1 })).toBe('Nothing was imported: 1 row was rejected and the mode is all or nothing');
    expect(formatError('IMPORT_REJECTED', { count: 2 })).toBe('Nothing was imported: 2 rows were rejected and the mode is all or nothing');
  });

  it('has no template written with "(s)"', () => {
    const texts = Object.values(ERRORS).flatMap((e) => (typeof e.template === 'string' ? [e.template] : [templateFor(e.template, { count: 1 }), templateFor(e.template, { count: 2 })]));
    expect(texts.filter((t) => t.includes('(s)'))).toEqual([]);
  });
});

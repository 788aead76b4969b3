import { describe, expect, it } from 'vitest';
import { parseDigitalLink, parseElementString, parseScan } from './gs1';

const GS = '\u001d';

describe('parseScan', () => {
  it('takes a plain serial as typed or read from a QR code, trimmed', () => {
    expect(parseScan('  IBC-000123\n')).toEqual({ serial: 'IBC-000123' });
    expect(parseScan('   ')).toBeNull();
  });

  it('reads AI 21 from a GS1 DataMatrix element string (symbology prefix, FNC1 as GS)', () => {
    expect(parseScan(`]d201095011010209171725123110ABC123${GS}21IBC-77`)).toEqual({
      serial: 'IBC-77', gs1: { '01': '09501101020917', '17': '251231', '10': 'ABC123', '21': 'IBC-77' },
    });
  });

  it('takes the serial part of a GRAI (AI 8003) when there is no AI 21', () => {
    // 0 + GRAI-13 (company prefix, asset type, check digit) + serial
    expect(parseScan(`]d2800309501101530003CAGE42`)?.serial).toBe('CAGE42');
    expect(parseScan(`${GS}800309501101530003${GS}21S-9`)?.serial).toBe('S-9');
  });

  it('reads the human-readable form with parentheses', () => {
    expect(parseScan('(8003)09501101530003(21)IBC 5')).toEqual({ serial: 'IBC 5', gs1: { '8003': '09501101530003', '21': 'IBC 5' } });
  });

  it('reads a GIAI (AI 8004) whole', () => {
    expect(parseScan(`]Q38004950110100IBC9`)?.serial).toBe('950110100IBC9');
  });

  it('reads a GS1 Digital Link URI and a URL with a serial parameter', () => {
    expect(parseScan('https://id.gs1.org/01/09501101020917/21/IBC-12')?.serial).toBe('IBC-12');
    expect(parseScan('https://id.example.com/8003/09501101530003CAGE7')?.serial).toBe('CAGE7');
    expect(parseScan('https://trace.example.com/ibc?serial=IBC-3')?.serial).toBe('IBC-3');
  });

  it('keeps a GS1 code without a serial AI, or an unknown URL, as the text itself', () => {
    expect(parseScan(`]d20109501101020917`)?.serial).toBe('0109501101020917');
    expect(parseScan('https://example.com/about')?.serial).toBe('https://example.com/about');
  });
});

describe('GS1 parsers', () => {
  it('answer null for text that is not GS1', () => {
    expect(parseElementString('IBC-1')).toBeNull();
    expect(parseElementString('(99')).toBeNull();
    expect(parseDigitalLink('not a url')).toBeNull();
  });
});

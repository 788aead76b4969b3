import { describe, expect, it } from 'vitest';
import { isTrustedOrigin, trustedOrigins } from './origins';

const trusted = trustedOrigins({ featuresOrigin: 'https://features.example.com/agro', allowedOrigins: ['http://127.0.0.1:3000', 'http://localhost:3000/'] });

describe('trusted frame origins', () => {
  it('are the configured origins plus the origin of the features address', () => {
    expect([...trusted].sort()).toEqual(['http://127.0.0.1:3000', 'http://localhost:3000', 'https://features.example.com']);
  });

  it('accept an exact origin', () => {
    expect(isTrustedOrigin('https://features.example.com', trusted)).toBe(true);
    expect(isTrustedOrigin('http://localhost:3000', trusted)).toBe(true);
  });

  it('refuse another port, scheme, host or a look-alike suffix', () => {
    for (const o of ['http://127.0.0.1:3001', 'http://features.example.com', 'https://features.example.com.evil.test', 'https://evil.test', 'https://sub.features.example.com']) {
      expect(isTrustedOrigin(o, trusted), o).toBe(false);
    }
  });

  it('refuse the opaque null origin of sandboxed frames and files', () => {
    expect(isTrustedOrigin('null', trustedOrigins({ featuresOrigin: 'null', allowedOrigins: ['null'] }))).toBe(false);
  });

  it('skip configured entries that are not addresses', () => {
    expect([...trustedOrigins({ featuresOrigin: 'not a url', allowedOrigins: ['*', 'https://ok.example'] })]).toEqual(['https://ok.example']);
  });
});

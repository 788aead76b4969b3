import { describe, expect, it } from 'vitest';
import { resolveFrame } from './frame';

const base = { baseDomain: 'localhost', indexPage: 'index.html' };

describe('resolveFrame', () => {
  it('puts a features path and an empty allowed list on the shell origin', () => {
    expect(resolveFrame({ ...base }, 'http://127.0.0.1:3101')).toEqual({ ...base, featuresOrigin: 'http://127.0.0.1:3101/features', allowedOrigins: ['http://127.0.0.1:3101'] });
    expect(resolveFrame({ ...base, featuresOrigin: 'features/', allowedOrigins: [] }, 'https://t.example/')).toMatchObject({ featuresOrigin: 'https://t.example/features/', allowedOrigins: ['https://t.example'] });
  });

  it('keeps a separate features host and configured shell origins, and is idempotent', () => {
    const frame = { ...base, featuresOrigin: 'https://features.example.com', allowedOrigins: ['https://shell.example.com'], mainOrigin: 'https://main.example.com' };
    expect(resolveFrame(frame, 'http://127.0.0.1:3101')).toEqual(frame);
    const once = resolveFrame({ ...base }, 'http://localhost:3461');
    expect(resolveFrame(once, 'http://elsewhere:1')).toEqual(once);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { signInWithPopup, type PopupDeps } from './providerPopup';

function harness() {
  const popup = { closed: false } as Window;
  let listener: ((e: MessageEvent) => void) | undefined;
  const deps: PopupDeps = {
    open: vi.fn(() => popup),
    addMessageListener: (fn) => {
      listener = fn;
      return () => {
        listener = undefined;
      };
    },
    origin: 'http://app.test',
    pollMs: 5,
  };
  const post = (data: unknown, origin = 'http://app.test', source: unknown = popup) => listener?.({ data, origin, source } as MessageEvent);
  return { popup, deps, post, listening: () => listener !== undefined };
}

describe('signInWithPopup', () => {
  it('opens the provider start address and settles with the token the popup posts', async () => {
    const h = harness();
    const result = signInWithPopup('google', h.deps);
    expect(h.deps.open).toHaveBeenCalledWith('/api/auth/provider/google/start', 'signin-google', expect.any(String));
    h.post({ type: 'auth', token: 'abc' });
    expect(await result).toEqual({ ok: true, token: 'abc' });
    expect(h.listening()).toBe(false);
  });

  it('ignores messages from another origin or window', async () => {
    const h = harness();
    const result = signInWithPopup('github', h.deps);
    h.post({ type: 'auth', token: 'evil' }, 'http://evil.test');
    h.post({ type: 'auth', token: 'evil' }, 'http://app.test', {});
    h.post({ type: 'auth-error', message: 'GitHub not configured for this organization' });
    expect(await result).toEqual({ ok: false, message: 'GitHub not configured for this organization' });
  });

  it('settles without a message when the popup is closed or blocked', async () => {
    const h = harness();
    const result = signInWithPopup('saml', h.deps);
    (h.popup as { closed: boolean }).closed = true;
    expect(await result).toEqual({ ok: false, message: null });
    expect(await signInWithPopup('google', { ...h.deps, open: () => null })).toEqual({ ok: false, message: null });
  });
});

/** What a provider popup posts to its opener when it is done (same origin only). */
export type PopupResult = { ok: true; token: string } | { ok: false; message: string | null };

export interface PopupDeps {
  open: (url: string, name: string, features: string) => Window | null;
  addMessageListener: (fn: (e: MessageEvent) => void) => () => void;
  origin: string;
  pollMs?: number;
}

const FEATURES = 'width=520,height=640,menubar=no,toolbar=no,location=yes,status=no';

/**
 * Opens `/api/auth/provider/:id/start` in a popup and settles with its answer: a token, the
 * provider's error message, or `message: null` when the popup was closed (or blocked) first.
 */
export function signInWithPopup(providerId: string, deps: PopupDeps): Promise<PopupResult> {
  return new Promise((resolve) => {
    const popup = deps.open(`/api/auth/provider/${encodeURIComponent(providerId)}/start`, `signin-${providerId}`, FEATURES);
    if (!popup) {
      resolve({ ok: false, message: null });
      return;
    }
    let settled = false;
    const finish = (r: PopupResult) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      stop();
      resolve(r);
    };
    const stop = deps.addMessageListener((e) => {
      if (e.origin !== deps.origin || e.source !== popup) return;
      const d = e.data as { type?: unknown; token?: unknown; message?: unknown } | null;
      if (d?.type === 'auth' && typeof d.token === 'string') finish({ ok: true, token: d.token });
      else if (d?.type === 'auth-error') finish({ ok: false, message: typeof d.message === 'string' ? d.message : null });
    });
    const timer = setInterval(() => {
      if (popup.closed) finish({ ok: false, message: null });
    }, deps.pollMs ?? 400);
  });
}

export function browserPopupDeps(): PopupDeps {
  return {
    open: (url, name, features) => window.open(url, name, features),
    addMessageListener: (fn) => {
      window.addEventListener('message', fn);
      return () => window.removeEventListener('message', fn);
    },
    origin: window.location.origin,
  };
}

import { randomBytes } from 'node:crypto';

export type PopupMessage = { type: 'auth'; token: string } | { type: 'auth-error'; message: string };

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The page a provider popup ends on: it posts the answer to the window that opened it, only to
 * the app's own origin (another site that opened the popup gets nothing), and closes.
 * Served with a nonce-only CSP, so this one inline script is all the page can run.
 */
export function popupPage(appOrigin: string, message: PopupMessage, text: { title: string; done: string }): { html: string; headers: Record<string, string> } {
  const nonce = randomBytes(16).toString('base64');
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>${escapeHtml(text.title)}</title></head>
<body><p>${escapeHtml(message.type === 'auth-error' ? message.message : text.done)}</p>
<script nonce="${nonce}">(function () {
  var message = ${scriptJson(message)};
  if (window.opener) window.opener.postMessage(message, ${scriptJson(appOrigin)});
  window.close();
})();</script></body></html>`;
  return {
    html,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; frame-ancestors 'none'`,
    },
  };
}

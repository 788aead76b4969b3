import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Decodes quoted-printable and base64 bodies well enough to find links in a test mail. */
export function readableMail(raw: string): string {
  const qp = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const decoded = [Buffer.from(qp, 'latin1').toString('utf8')];
  for (const m of raw.matchAll(/Content-Transfer-Encoding:\s*base64\s*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi)) {
    decoded.push(Buffer.from(m[1].replace(/\s+/g, ''), 'base64').toString('utf8'));
  }
  return decoded.join('\n');
}

/** Waits for the newest mail to `to` the test SMTP server wrote, and returns it decoded. */
export async function waitForMail(dir: string, to: string, timeoutMs = 15_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (existsSync(dir)) {
      for (const f of readdirSync(dir).sort().reverse()) {
        const raw = readFileSync(join(dir, f), 'utf8');
        if (raw.toLowerCase().includes(to.toLowerCase())) return readableMail(raw);
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
}

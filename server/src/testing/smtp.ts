import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** Headers and body with quoted-printable soft breaks and escapes undone. */
  text: string;
}

/** A real SMTP peer on loopback that keeps what it receives. */
export async function startSmtp(): Promise<{ url: string; mails: ReceivedMail[]; next(): Promise<ReceivedMail>; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const waiting: ((m: ReceivedMail) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (c: string) => { raw += c; });
      stream.on('end', () => {
        const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
        const mail = { to: session.envelope.rcptTo.map((r) => r.address), raw, text: Buffer.from(text, 'latin1').toString('utf8') };
        mails.push(mail);
        waiting.shift()?.(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    next: () => new Promise((resolve, reject) => {
      waiting.push(resolve);
      setTimeout(() => reject(new Error('no mail within 10 s')), 10_000);
    }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

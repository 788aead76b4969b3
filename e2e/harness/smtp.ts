import { createServer, type Server, type Socket } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A test SMTP server: accepts every message without authentication and writes each one to
 * `<dir>/<n>.eml`, so tests in other processes can read the mail the server sent.
 */
export async function startSmtp(dir: string, port: number): Promise<{ url: string; stop(): Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  let n = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let data = '';
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 e2e-smtp ready');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      while (true) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) {
            // Keep the tail in case the terminator is split across chunks.
            if (buffer.length > 5) {
              data += buffer.slice(0, -5);
              buffer = buffer.slice(-5);
            }
            return;
          }
          data += buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          writeFileSync(join(dir, `${String(++n).padStart(4, '0')}.eml`), data.replace(/^\.\./gm, '.'));
          data = '';
          reply('250 2.0.0 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'EHLO') socket.write('250-e2e-smtp\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n');
        else if (verb === 'HELO') reply('250 e2e-smtp');
        else if (verb === 'DATA') {
          inData = true;
          reply('354 end data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
          return;
        } else reply('250 OK');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

/**
 * The features origin of the tests: a second static server that answers every path with
 * the test feature page, as a real features host answers every feature's index page.
 */
export async function startFeaturesServer(pagePath: string, port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const page = readFileSync(pagePath);
  const server = createServer((req, res) => {
    if (req.url === '/favicon.ico') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

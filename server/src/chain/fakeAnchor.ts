import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sha256 } from './canonical';
import type { AnchorRequest } from './adapter';

export interface FakeAnchorControl {
  /** 'down': every call answers 503 (the network unreachable) until set 'up' again. */
  mode: 'up' | 'down';
  /** Every root anchored, in order. */
  anchored: (AnchorRequest & { txHash: string; blockNumber: number })[];
}

/**
 * A loopback stand-in for a blockchain's anchoring service (`POST /anchor` → receipt), for the
 * tests and the demo: blocks numbered from 1, a transaction hash derived from what was sent.
 */
export async function startFakeAnchor(opts: { port?: number } = {}): Promise<{ url: string; control: FakeAnchorControl; stop(): Promise<void> }> {
  const control: FakeAnchorControl = { mode: 'up', anchored: [] };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const send = (status: number, v: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v)); };
      if (req.method !== 'POST' || req.url !== '/anchor') return send(404, { error: 'not found' });
      if (control.mode === 'down') return send(503, { error: 'network unavailable' });
      const r = JSON.parse(body) as AnchorRequest;
      const blockNumber = control.anchored.length + 1;
      const txHash = `0x${sha256(`${blockNumber}:${body}`)}`;
      control.anchored.push({ ...r, txHash, blockNumber });
      send(200, { txHash, blockNumber, at: new Date().toISOString() });
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, control, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

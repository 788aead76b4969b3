/** What one anchoring puts on the network: an account's entries fromSeq..toSeq, summed up by their Merkle root. */
export interface AnchorRequest { account: string; network: string; fromSeq: number; toSeq: number; root: string }
/** The network's receipt: the transaction holding the root, its block when known, when it was accepted. */
export interface AnchorReceipt { txHash: string; blockNumber?: number; at: string }

/** The one seam to a blockchain: docs/chain.md describes an Ethereum-compatible adapter. */
export interface AnchorAdapter {
  anchor(r: AnchorRequest): Promise<AnchorReceipt>;
}

/**
 * An anchoring service over HTTP: `POST {url}/anchor` with the request as JSON, answering the
 * receipt (the loopback fake answers so; a relay in front of a real network can too).
 */
export function createHttpAnchor(url: string, timeoutMs = 10_000): AnchorAdapter {
  return {
    async anchor(r) {
      const res = await fetch(new URL('anchor', url.endsWith('/') ? url : `${url}/`), {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(r), signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`the anchoring service answered ${res.status}: ${text.slice(0, 200)}`);
      const body = JSON.parse(text) as Partial<AnchorReceipt>;
      if (typeof body.txHash !== 'string' || typeof body.at !== 'string') throw new Error(`the anchoring service answered no receipt: ${text.slice(0, 200)}`);
      return { txHash: body.txHash, at: body.at, ...(typeof body.blockNumber === 'number' ? { blockNumber: body.blockNumber } : {}) };
    },
  };
}

/**
 * The feature frame's addresses for each request. A features origin given as a path, and an
 * empty allowedOrigins, follow the address the shell is reached at: PUBLIC_URL when it is
 * set, else the request's own origin (its Host, or X-Forwarded-Host/-Proto when TRUST_PROXY
 * trusts the proxy, as Fastify reads them). The public config hands these to the web and the
 * CSP's frame-src and frame-ancestors are built from them, so any port works.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { resolveFrame, type DeploymentSettings, type FrameAddresses } from '../../../engine/src/index';

const byRequest = new WeakMap<IncomingMessage, FrameAddresses>();

// A host name, IPv4 or bracketed IPv6 address, and port: nothing that could end a CSP directive.
const HOST = /^(?:[a-z\d.-]+|\[[a-f\d:.]+\])(?::\d{1,5})?$/i;

/** The origin the shell is reached at for this request, or null when its Host is missing or malformed. */
export function requestOrigin(req: Pick<FastifyRequest, 'protocol' | 'host'>, publicOrigin?: string): string | null {
  if (publicOrigin) return publicOrigin;
  return req.host && HOST.test(req.host) ? `${req.protocol}://${req.host.toLowerCase()}` : null;
}

/** The frame addresses computed for a request (by the onRequest hook), or undefined before it ran. */
export function frameOf(req: IncomingMessage): FrameAddresses | undefined {
  return byRequest.get(req);
}

export const frameOrigins = fp(async (app: FastifyInstance, opts: { frame: DeploymentSettings['frame']; publicOrigin?: string }) => {
  app.addHook('onRequest', async (req) => {
    const origin = requestOrigin(req, opts.publicOrigin);
    if (origin) byRequest.set(req.raw, resolveFrame(opts.frame, origin));
  });
}, { name: 'frame-origins' });

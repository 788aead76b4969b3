/**
 * Security headers on every answer (the app, the API, /api/docs), set by @fastify/helmet: a
 * Content-Security-Policy the built app and the Swagger UI run under, nosniff, a referrer
 * policy. Framing: pages under the features path (the feature frame the shell embeds, when this
 * server answers the deployment's featuresOrigin) may be framed by the shell's origins only;
 * nothing else may be framed at all. Both follow the address each request reached the server
 * at (frameOrigins), so the frame works on any port.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import { DEFAULT_FEATURES_PATH, type DeploymentSettings, type FrameAddresses } from '../../../engine/src/index';
import { frameOf } from './frameOrigins';

type Settings = Pick<DeploymentSettings, 'frame' | 'map'>;

/** The origin of a URL or URL template (`{s}` subdomains become a wildcard), or null. */
export function originOf(url: string | undefined): string | null {
  const m = /^(https?):\/\/([^/?#]+)/i.exec((url ?? '').replace(/\{s\}/g, '*'));
  return m ? `${m[1].toLowerCase()}://${m[2].toLowerCase()}` : null;
}

/** The path under which this server answers the feature frame (featuresOrigin's path), or null. */
export function featuresPath(frame: Settings['frame']): string | null {
  const m = /^(?:https?:\/\/[^/?#]+)?(\/[^?#]*)/i.exec(frame.featuresOrigin ?? DEFAULT_FEATURES_PATH);
  const path = m?.[1].replace(/\/+$/, '');
  return path ? `${path}/` : null;
}

const sources = (origins: (string | undefined)[]): string => ["'self'", ...new Set(origins.map(originOf).filter((o): o is string => o !== null))].join(' ');

/** Who may frame a page: the shell (this origin, mainOrigin and the allowed shell origins) for the feature frame; nobody otherwise. */
export function frameAncestors(settings: Settings): (url: string, frame: FrameAddresses | undefined) => string {
  const prefix = featuresPath(settings.frame);
  return (url, frame) => (prefix !== null && url.startsWith(prefix) ? sources([frame?.mainOrigin, ...(frame?.allowedOrigins ?? [])]) : "'none'");
}

export const securityHeaders = fp(async (app: FastifyInstance, opts: { settings: Settings }) => {
  const ancestors = frameAncestors(opts.settings);
  const tiles = originOf(opts.settings.map?.tileUrl);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        // 'unsafe-eval': the generated forms compile the definitions' JSON schemas with Ajv in
        // the browser (@rjsf/validator-ajv8), which builds validators with new Function. The
        // definitions arrive at run time, so they cannot be precompiled into the build.
        scriptSrc: ["'self'", "'unsafe-eval'"],
        scriptSrcAttr: ["'none'"],
        // PrimeReact and Swagger UI set styles at run time (style elements and attributes).
        styleSrc: ["'self'", "'unsafe-inline'"],
        // data: for icons inlined in CSS; the map's tile server when the deployment has one.
        imgSrc: ["'self'", 'data:', 'blob:', ...(tiles ? [tiles] : [])],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: [(req: IncomingMessage) => sources([frameOf(req)?.featuresOrigin])],
        formAction: ["'self'"],
        frameAncestors: [(req: IncomingMessage) => ancestors(req.url ?? '/', frameOf(req))],
      },
    },
    // frame-ancestors says who may frame; X-Frame-Options cannot name the shell's other origins.
    xFrameOptions: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // The sign-in popups (OIDC, SAML) come back through the identity provider's pages and post
    // to their opener: any opener policy on either side would cut that link.
    crossOriginOpenerPolicy: false,
    // Served on plain HTTP in development and behind TLS-terminating proxies: HSTS is the proxy's call.
    strictTransportSecurity: false,
  });
}, { name: 'security-headers' });

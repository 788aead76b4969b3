import type { DeploymentSettings } from '../types';

/** Where the feature frame lives when the deployment names no features host: a path of the shell's own server. */
export const DEFAULT_FEATURES_PATH = '/features';

/** The frame settings with every address absolute, for a shell reached at one origin. */
export type FrameAddresses = Omit<DeploymentSettings['frame'], 'featuresOrigin' | 'allowedOrigins'> & {
  featuresOrigin: string;
  allowedOrigins: string[];
};

const ABSOLUTE = /^[a-z][a-z\d+.-]*:/i;

/**
 * The deployment's frame settings as seen from a shell reached at `shellOrigin` (PUBLIC_URL,
 * or the request's own origin). A features origin that is a path (the default `/features`)
 * lives on the shell's server, so it follows whatever address and port that server is
 * reached at; an absolute one names a separate features host and is kept. No allowed
 * origins means the shell's own origin. Already absolute settings come back unchanged.
 */
export function resolveFrame(frame: DeploymentSettings['frame'], shellOrigin: string): FrameAddresses {
  const origin = shellOrigin.replace(/\/+$/, '');
  const features = frame.featuresOrigin ?? DEFAULT_FEATURES_PATH;
  const featuresOrigin = ABSOLUTE.test(features) ? features : `${origin}/${features.replace(/^\/+/, '')}`;
  const allowedOrigins = frame.allowedOrigins?.length ? [...frame.allowedOrigins] : [origin];
  return { ...frame, featuresOrigin, allowedOrigins };
}

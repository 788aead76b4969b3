import type { FrameAddresses } from '../../../engine/src/index';

export type FrameSettings = Pick<FrameAddresses, 'featuresOrigin' | 'baseDomain' | 'indexPage'>;

export interface FramedFeature {
  id: string;
  src?: string;
  pathSuffix?: string;
}

function appendSearch(url: string, search: string): string {
  const q = search.replace(/^\?/, '');
  if (!q) return url;
  const hash = url.indexOf('#');
  const [base, fragment] = hash === -1 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  return `${base}${base.includes('?') ? '&' : '?'}${q}${fragment}`;
}

/**
 * SPEC 2.1: the embedded frame's address,
 * `<featuresOrigin>/<deployment>/<feature id, slashes as dots>.<baseDomain>/<indexPage><pathSuffix>`,
 * or the feature's own `src` page. The shell's query string is handed on to the frame.
 */
export function buildFrameUrl(frame: FrameSettings, deploymentName: string, feature: FramedFeature, search = ''): string {
  if (feature.src) return appendSearch(feature.src, search);
  const origin = frame.featuresOrigin.replace(/\/+$/, '');
  const host = `${feature.id.replace(/\//g, '.')}.${frame.baseDomain}`;
  const page = frame.indexPage.replace(/^\/+/, '');
  return appendSearch(`${origin}/${encodeURIComponent(deploymentName)}/${host}/${page}${feature.pathSuffix ?? ''}`, search);
}

/** The origin a frame address lives on, for postMessage's target origin. */
export function originOf(url: string, base?: string): string | null {
  try {
    return new URL(url, base).origin;
  } catch {
    return null;
  }
}

import type { FeatureDef, FrameAddresses, MonitoringFeatureDef, Registry, ReportFeatureDef, TraceFeatureDef } from '../../../engine/src/index';

/**
 * When the deployment's features origin is a path of this very server (the default,
 * `/features`) and nothing else serves it, the server answers the
 * frame's address with this app. Loaded inside the frame there, the app renders a small
 * stand-in feature instead of a second shell. Returns the feature id the address names.
 */
export function framedFeatureId(
  loc: { origin: string; pathname: string },
  framed: boolean,
  frame: Pick<FrameAddresses, 'featuresOrigin' | 'baseDomain'>,
): string | null {
  if (!framed) return null;
  let base: URL;
  try {
    base = new URL(frame.featuresOrigin, loc.origin);
  } catch {
    return null;
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  if (base.origin !== loc.origin || prefix === '' || !loc.pathname.startsWith(`${prefix}/`)) return null;
  // <prefix>/<deployment>/<feature id with dots>.<baseDomain>/<index page>
  const host = loc.pathname.slice(prefix.length + 1).split('/')[1] ?? '';
  const suffix = `.${frame.baseDomain}`;
  return host.endsWith(suffix) ? host.slice(0, -suffix.length) : host || null;
}

/** The framed feature drawn from report definitions (features.json `report`), or null. */
export function reportFeature(registry: Pick<Registry, 'features'>, featureId: string): (FeatureDef & { report: ReportFeatureDef }) | null {
  const f = registry.features.features.find((x) => x.id === featureId);
  return f?.report ? (f as FeatureDef & { report: ReportFeatureDef }) : null;
}

/** The framed feature drawn from the operations routes (features.json `monitoring`), or null. */
export function monitoringFeature(registry: Pick<Registry, 'features'>, featureId: string): (FeatureDef & { monitoring: MonitoringFeatureDef }) | null {
  const f = registry.features.features.find((x) => x.id === featureId);
  return f?.monitoring ? (f as FeatureDef & { monitoring: MonitoringFeatureDef }) : null;
}

/** The framed feature drawn from the trace routes (features.json `trace`), or null. */
export function traceFeature(registry: Pick<Registry, 'features'>, featureId: string): (FeatureDef & { trace: TraceFeatureDef }) | null {
  const f = registry.features.features.find((x) => x.id === featureId);
  return f?.trace ? (f as FeatureDef & { trace: TraceFeatureDef }) : null;
}

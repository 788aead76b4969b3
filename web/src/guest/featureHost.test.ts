import { describe, expect, it } from 'vitest';
import { requireDefinitions } from '../../../definitions/read';
import { framedFeatureId, monitoringFeature, reportFeature } from './featureHost';

const frame = { featuresOrigin: 'http://127.0.0.1:3000/features', baseDomain: 'localhost' };
const at = (pathname: string, origin = 'http://127.0.0.1:3000') => ({ origin, pathname });

describe('framedFeatureId', () => {
  it('names the feature when the app is loaded in the frame under the features path', () => {
    expect(framedFeatureId(at('/features/agro/imports.localhost/index.html'), true, frame)).toBe('imports');
    expect(framedFeatureId(at('/features/agro/carbon-tracking.kpi-metrics.localhost/index.html'), true, frame)).toBe('carbon-tracking.kpi-metrics');
  });

  it('is null outside a frame, on other paths, other origins, or a features origin without a path', () => {
    expect(framedFeatureId(at('/features/agro/imports.localhost/index.html'), false, frame)).toBeNull();
    expect(framedFeatureId(at('/imports'), true, frame)).toBeNull();
    expect(framedFeatureId(at('/features/agro/imports.localhost/index.html', 'http://localhost:3000'), true, frame)).toBeNull();
    expect(framedFeatureId(at('/agro/imports.localhost/index.html'), true, { ...frame, featuresOrigin: 'http://127.0.0.1:3000' })).toBeNull();
    expect(framedFeatureId(at('/features/agro/x.localhost/index.html'), true, { ...frame, featuresOrigin: 'https://features.example.com/features' })).toBeNull();
  });
});

describe('the features the guest app draws from definitions', () => {
  const registry = requireDefinitions(process.cwd());
  it('draws /cache-manager as the caches monitoring view and /inbound-messages as its report', () => {
    expect(monitoringFeature(registry, 'cache-manager')?.monitoring).toEqual({ view: 'caches' });
    expect(reportFeature(registry, 'inbound-messages')?.report).toEqual({ view: 'single', key: 'get_inbound_messages' });
    expect(monitoringFeature(registry, 'alerts')).toBeNull();
  });
});

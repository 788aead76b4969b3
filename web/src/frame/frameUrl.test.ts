import { describe, expect, it } from 'vitest';
import { buildFrameUrl, originOf } from './frameUrl';

const frame = { featuresOrigin: 'https://features.example.com', baseDomain: 'optchain.app', indexPage: 'index.html' };

describe('buildFrameUrl', () => {
  it('joins the features origin, the deployment name, the feature id and the base domain, then the index page', () => {
    expect(buildFrameUrl(frame, 'agro', { id: 'imports' })).toBe('https://features.example.com/agro/imports.optchain.app/index.html');
  });

  it('replaces the slashes of a feature id with dots', () => {
    expect(buildFrameUrl(frame, 'agro', { id: 'carbon-tracking/kpi-metrics' })).toBe('https://features.example.com/agro/carbon-tracking.kpi-metrics.optchain.app/index.html');
  });

  it('appends the path suffix after the index page', () => {
    expect(buildFrameUrl(frame, 'agro', { id: 'reports', pathSuffix: '#/history' })).toBe('https://features.example.com/agro/reports.optchain.app/index.html#/history');
  });

  it('tolerates a trailing slash on the origin and a leading slash on the page', () => {
    expect(buildFrameUrl({ ...frame, featuresOrigin: 'http://127.0.0.1:3000/features/', indexPage: '/index.html' }, 'agro', { id: 'alerts' }))
      .toBe('http://127.0.0.1:3000/features/agro/alerts.optchain.app/index.html');
  });

  it('uses the feature\'s own page when it has a src', () => {
    expect(buildFrameUrl(frame, 'agro', { id: 'demo/product-authentication', src: 'https://www.gs1.org/services/verified-by-gs1' }))
      .toBe('https://www.gs1.org/services/verified-by-gs1');
  });

  it('hands the shell\'s query string on, before any fragment', () => {
    expect(buildFrameUrl(frame, 'agro', { id: 'product-history' }, '?lot=L-1')).toBe('https://features.example.com/agro/product-history.optchain.app/index.html?lot=L-1');
    expect(buildFrameUrl(frame, 'agro', { id: 'reports', pathSuffix: '?tab=2#top' }, '?lot=L-1')).toBe('https://features.example.com/agro/reports.optchain.app/index.html?tab=2&lot=L-1#top');
    expect(buildFrameUrl(frame, 'agro', { id: 'x', src: 'https://a.example/p' }, '?q=1')).toBe('https://a.example/p?q=1');
  });
});

describe('originOf', () => {
  it('gives the origin of an address, or null when it is not one', () => {
    expect(originOf('https://features.example.com/agro/x/index.html')).toBe('https://features.example.com');
    expect(originOf('/features/agro', 'http://127.0.0.1:3000/dashboards')).toBe('http://127.0.0.1:3000');
    expect(originOf('not a url')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { buildRouteTable } from '../../../engine/src/index';
import { fixtureRegistry } from '../../../engine/src/testing/fixtures';
import { currentRoute } from './currentRoute';

const routes = buildRouteTable(fixtureRegistry(), 'en');

describe('currentRoute', () => {
  it('finds the route of a path and of the paths below it', () => {
    expect(currentRoute(routes, '/imports')?.id).toBe('imports');
    expect(currentRoute(routes, '/imports/12/edit')?.id).toBe('imports');
  });

  it('matches / only exactly, and never the catch-all or a look-alike prefix', () => {
    expect(currentRoute(routes, '/')?.id).toBe('incomingNavigation');
    expect(currentRoute(routes, '/importsx')).toBeUndefined();
    expect(currentRoute(routes, '/nowhere')).toBeUndefined();
  });

  it('prefers the longest matching path', () => {
    expect(currentRoute(routes, '/dashboards')?.id).toBe('dashboards');
    expect(currentRoute(routes, '/dashboard')?.id).toBe('dashboard');
  });
});

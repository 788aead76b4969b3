import { describe, expect, it } from 'vitest';
import { fixtureRegistry } from '../testing/fixtures';
import { buildRouteTable, homeRoute, resolveGoTo, routesFor } from './routes';
import { activeGroupOf, buildMenu } from './menu';

const reg = fixtureRegistry();
const routes = buildRouteTable(reg);

describe('route table (SPEC 2.3)', () => {
  it('holds the fixed routes and the deployed features only', () => {
    const paths = routes.map((r) => r.path);
    expect(paths).toEqual(expect.arrayContaining(['/globalsearch', '/', '/resetPassword', '/dashboards', '/masterdata', '/esg-performance']));
    expect(paths).not.toContain('/demo');
    expect(paths[paths.length - 1]).toBe('/*');
  });

  it('suffixes equal display names with a number in parentheses', () => {
    expect(routes.filter((r) => r.id.startsWith('dashboard')).map((r) => r.name)).toEqual(['Dashboards', 'Dashboards (2)']);
  });

  it('flags http paths to open in a new tab', () => {
    expect(routes.find((r) => r.id === 'auth')?.newTab).toBe(true);
    expect(routes.find((r) => r.id === 'masterdata')?.newTab).toBe(false);
  });

  it('leaves out a feature whose required extension is not enabled', () => {
    const noExt = { ...reg, deployment: { ...reg.deployment, extensions: {} } };
    expect(buildRouteTable(noExt).map((r) => r.id)).not.toContain('esg');
  });

  it('names routes in the requested language', () => {
    expect(buildRouteTable(reg, 'es').find((r) => r.id === 'masterdata')?.name).toBe('Master Data (es)');
  });
});

describe('menu (SPEC 2.1, 6)', () => {
  const superadmin = buildMenu(reg, routes, { access: ['superadmin'] });
  const limited = buildMenu(reg, routes, { access: ['Dashboards'] });

  it('shows superadmin every entry except no-menu ones', () => {
    const all = superadmin.flatMap((g) => g.children ?? [g]).map((i) => i.id);
    expect(all).toEqual(expect.arrayContaining(['dashboards', 'map', 'history', 'masterdata', 'imports', 'auth', 'globalsearch']));
    expect(all).not.toContain('hidden');
    expect(all).not.toContain('incomingNavigation');
  });

  it('suffixes groups with equal names', () => {
    expect(superadmin.map((g) => g.label)).toEqual(expect.arrayContaining(['Traceability Performance', 'Traceability Performance (2)']));
  });

  it('shows a limited user only permitted entries, and a group only when a child is permitted', () => {
    expect(limited.map((g) => g.id)).toEqual(['globalsearch', 'dashboards']);
    expect(limited[1].children?.map((c) => c.id)).toEqual(['dashboards', 'dashboard']);
  });

  it('opens the group of the current route', () => {
    expect(activeGroupOf(superadmin, '/masterdata/company')).toBe('admin');
    expect(activeGroupOf(superadmin, '/nowhere')).toBeUndefined();
  });

  it('uses the custom menu from the settings when set', () => {
    const custom = {
      ...reg,
      deployment: { ...reg.deployment, settings: { ...reg.deployment.settings, customMenu: [
        { id: 'capture', label: { en: 'Data Capture', es: 'Captura', fr: 'Saisie' }, children: [
          { id: 'md', path: '/masterdata', access: 'Master Data' },
          { id: 'imp', path: '/imports', access: 'Imports' },
        ] },
        { id: 'secret', path: '/dashboards', access: 'Reports' },
      ] } },
    };
    expect(buildMenu(custom, routes, { access: ['Master Data'] })).toEqual([
      { id: 'capture', label: 'Data Capture', path: undefined, children: [{ id: 'md', label: 'Master Data', path: '/masterdata', icon: undefined, newTab: undefined }] },
    ]);
  });
});

describe('goTo (SPEC 7)', () => {
  it('goes home to /', () => {
    expect(resolveGoTo(routes, 'home')).toEqual({ path: '/' });
  });
  it('picks the lowest-ordered route declaring navigation for the type', () => {
    expect(resolveGoTo(routes, 'lot')?.path).toBe('/product-history');
  });
  it('falls back to a route whose id equals the type, else nothing', () => {
    expect(resolveGoTo(routes, 'imports')?.path).toBe('/imports');
    expect(resolveGoTo(routes, 'nothing')).toBeNull();
  });
  it('only considers the routes the user may open', () => {
    const visible = routesFor(routes, { access: ['traceabilityMapUser'] });
    expect(resolveGoTo(visible, 'lot')?.path).toBe('/traceability-map');
  });
  it('finds the home feature by priority among accessible routes', () => {
    expect(homeRoute(routesFor(routes, { access: ['Dashboards'] }))?.path).toBe('/dashboards');
  });
});

import { describe, expect, it } from 'vitest';
import { buildRouteTable, resolveGoTo } from '../../../engine/src/index';
import { requireDefinitions } from '../../../definitions/read';
import { recordPath } from './recordLink';

/** The shipped definitions: the routes global search really resolves. */
const routes = buildRouteTable(requireDefinitions(process.cwd()), 'en');

describe('recordPath', () => {
  it('opens a master-data record at its form under the master-data screen', () => {
    const target = resolveGoTo(routes, 'material')!;
    expect(target.route?.screen).toBe('masterdata');
    expect(recordPath(target, 'material', 'm 1')).toBe(`${target.path}/material/m%201`);
  });

  it('opens a record of an entity with its own feature under that feature', () => {
    const own = routes.find((r) => r.screen === 'entityList' && r.entity)!;
    expect(recordPath({ path: own.path, route: own }, own.entity!, 'u1')).toBe(`${own.path}/u1`);
  });

  it('keeps the query form for a route that is no generated list', () => {
    expect(recordPath({ path: '/dashboard' }, 'company', 'c1')).toBe('/dashboard?entity=company&id=c1');
  });
});

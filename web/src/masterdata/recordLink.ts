import type { GoToResult } from '../../../engine/src/index';

/**
 * Where one record's form opens, from the route goTo resolved for its entity type: an
 * entity's own feature (`/user-management/<id>`), the master-data screen
 * (`/masterdata/<entity>/<id>`), else the route with the record named in its query.
 */
export function recordPath(target: NonNullable<GoToResult>, entity: string, id: string): string {
  const base = target.path.replace(/\/+$/, '');
  const e = encodeURIComponent(entity);
  const i = encodeURIComponent(id);
  if (target.route?.screen === 'entityList' && target.route.entity === entity) return `${base}/${i}`;
  if (target.route?.screen === 'masterdata') return `${base}/${e}/${i}`;
  return `${base}?entity=${e}&id=${i}`;
}

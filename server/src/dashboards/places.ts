import { LOCATORS, placeOf, type LocatedEntity, type Place } from '../../../engine/src/index';
import type { Store, StoredDoc } from '../store/types';

const byId = (docs: StoredDoc[]) => new Map(docs.map((d) => [d.id, d]));

/** A record a widget groups by: what it is called, and where it is when it has a place. */
export interface Located { title: string; place?: Place }

/**
 * The records `keys` names (engine LOCATORS): their titles and places, a deposit placed where
 * its company is. Two finds of just the fields needed, whatever the number of rows grouped.
 */
export async function locate(store: Store, entity: LocatedEntity, keys: readonly string[]): Promise<Map<string, Located>> {
  const ids = [...new Set(keys.filter((k) => k !== ''))];
  const out = new Map<string, Located>();
  if (ids.length === 0) return out;
  const loc = LOCATORS[entity];
  const own = byId(await store.find(entity, { filter: { id: { $in: ids } }, projection: { [loc.title]: 1, ...(loc.point ? { [loc.point]: 1 } : {}), ...(loc.via ? { [loc.via.field]: 1 } : {}) } }));
  let via = new Map<string, StoredDoc>();
  if (loc.via) {
    const point = LOCATORS[loc.via.entity].point!;
    const viaIds = [...new Set([...own.values()].map((d) => d[loc.via!.field]).filter((v): v is string => typeof v === 'string'))];
    if (viaIds.length) via = byId(await store.find(loc.via.entity, { filter: { id: { $in: viaIds } }, projection: { [point]: 1 } }));
  }
  for (const [id, doc] of own) {
    const place = placeOf(entity, doc, loc.via ? via.get(String(doc[loc.via.field])) : undefined);
    out.set(id, { title: typeof doc[loc.title] === 'string' ? (doc[loc.title] as string) : id, ...(place ? { place } : {}) });
  }
  return out;
}

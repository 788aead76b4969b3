import { DEFAULT_ENTITY_ACCESS, canAccess, isMasterData, localize, type Lang, type Principal, type Registry } from '../../../engine/src/index';

export interface CatalogueEntry {
  name: string;
  label: string;
  pluralLabel: string;
  description: string;
  access: string;
}

/** The access key an entity's screens and API need (an unknown entity: the default, so nobody is let in by a typo). */
export function entityAccess(registry: Registry, entity: string): string {
  return registry.entities[entity]?.access ?? DEFAULT_ENTITY_ACCESS;
}

export function mayOpenEntity(registry: Registry, principal: Principal, entity: string): boolean {
  if (!isMasterData(registry, entity)) return false;
  return canAccess(principal, { key: entityAccess(registry, entity) }, registry.access.superadmin);
}

/**
 * The master-data catalogue: every entity the user may open (operations have their own
 * screens), except those with a screen of their own (`ownScreens`, e.g. users and groups), sorted by plural label in the current language.
 */
export function catalogueFor(registry: Registry, principal: Principal, lang: Lang, ownScreens: ReadonlySet<string> = new Set()): CatalogueEntry[] {
  return Object.values(registry.entities)
    .filter((e) => !ownScreens.has(e.name) && mayOpenEntity(registry, principal, e.name))
    .map((e) => ({
      name: e.name,
      label: localize(e.label, lang),
      pluralLabel: localize(e.pluralLabel, lang),
      description: localize(e.description, lang),
      access: entityAccess(registry, e.name),
    }))
    .sort((a, b) => a.pluralLabel.localeCompare(b.pluralLabel, lang));
}

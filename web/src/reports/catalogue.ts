import { canAccess, localize, type Lang, type Principal, type Registry, type ReportDef } from '../../../engine/src/index';

export const CATEGORIES: readonly ReportDef['category'][] = ['product', 'ibc', 'bulk', 'other'];

export interface CatalogueItem {
  key: string;
  label: string;
  description: string;
}

/** Whether this user may run the report: its access key, narrowed by the selected warehouse group when the key is a customer-module one (SPEC 6). */
export function mayRun(registry: Registry, principal: Principal, def: Pick<ReportDef, 'access'>): boolean {
  const customerModule = registry.access.keys.some((k) => k.key === def.access && k.customerModule === true);
  return canAccess(principal, { key: def.access, customerModule }, registry.access.superadmin);
}

/** A report this user may run, by key; undefined for an unknown or forbidden one. */
export function runnableReport(registry: Registry, principal: Principal, key: string): ReportDef | undefined {
  const def = registry.reports[key];
  return def && mayRun(registry, principal, def) ? def : undefined;
}

/**
 * The /reports catalogue: the reports this user may run, by category (product, IBC, bulk,
 * other; empty ones left out), those whose label, description or key contain every word of
 * the search (any case, accents ignored), sorted by label in the language.
 */
export function catalogue(registry: Registry, principal: Principal, lang: Lang, search = ''): { category: ReportDef['category']; items: CatalogueItem[] }[] {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
  const words = fold(search).split(/\s+/).filter(Boolean);
  const all = Object.values(registry.reports).filter((d) => mayRun(registry, principal, d));
  return CATEGORIES.map((category) => ({
    category,
    items: all.filter((d) => d.category === category)
      .map((d) => ({ key: d.key, label: localize(d.label, lang), description: localize(d.description, lang) }))
      .filter((i) => { const text = fold(`${i.label} ${i.description} ${i.key}`); return words.every((w) => text.includes(w)); })
      .sort((a, b) => a.label.localeCompare(b.label, lang)),
  })).filter((g) => g.items.length > 0);
}

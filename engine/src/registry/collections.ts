import type { FieldDef } from '../types';
import { enabledExtensions, SYNC_STATUS_PATH, type Registry } from './registry';

/** What a store needs to know of an entity: its unique keys and the paths it searches or sorts. */
export interface CollectionSpec {
  name: string;
  uniqueKeys: string[][];
  indexes: string[];
  /** Searchable text fields: what a list's search box looks in. */
  searchPaths: string[];
  /** Indexes over several paths, in order: the entity's `compoundIndexes`. */
  compoundIndexes?: string[][];
}

function walk(fields: FieldDef[], prefix: string, visit: (f: FieldDef, path: string) => void): void {
  for (const f of fields) {
    const path = prefix ? `${prefix}.${f.id}` : f.id;
    visit(f, path);
    // Inside lists of rows a unique key would mean unique across rows of all records: not indexed.
    if (f.fields && !f.multiple) walk(f.fields, path, visit);
  }
}

export function collectionSpec(reg: Registry, entity: string): CollectionSpec {
  const def = reg.entities[entity];
  const uniqueKeys: string[][] = [];
  const indexes = new Set<string>();
  const searchPaths: string[] = [];
  const visit = (f: FieldDef, path: string) => {
    if (f.unique && !f.multiple) uniqueKeys.push([path]);
    if ((f.searchable || f.sortable) && f.type !== 'object' && !f.multiple) indexes.add(path);
    if (f.searchable && f.type !== 'object') searchPaths.push(path);
  };
  walk(def.fields, '', visit);
  for (const ext of enabledExtensions(reg, entity)) walk(ext.fields, `extensions.${ext.name}`, visit);
  for (const k of def.uniqueKeys ?? []) uniqueKeys.push([...k]);
  if (def.fields.some((f) => f.id === 'state')) indexes.add('state');
  // The Senasa Sync filter of the lists, and the outbox's look for pending records without a job.
  if (def.sync) indexes.add(SYNC_STATUS_PATH);
  return { name: entity, uniqueKeys, indexes: [...indexes], searchPaths, ...(def.compoundIndexes?.length ? { compoundIndexes: def.compoundIndexes.map((k) => [...k]) } : {}) };
}

export function collectionSpecs(reg: Registry): CollectionSpec[] {
  return Object.keys(reg.entities).map((e) => collectionSpec(reg, e));
}

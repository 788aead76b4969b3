import { distance } from 'fastest-levenshtein';
import { bundleTexts, ERRORS } from '../errors';
import type { CustomMenuEntry, FieldDef } from '../types';
import type { Parsed } from './load';
import { escapePointer, type Problem } from './problems';
import { EXTENSIONS_LABEL, fieldAt, ID_FIELD, SYNC_STATUS_PATH } from './registry';
import { DEFAULT_ENTITY_ACCESS } from './sanitise';
import { checkReportFeatures, checkReports } from './reportrefs';
import { checkDashboards } from './dashboardrefs';
import { checkMobile } from './mobilerefs';
import { checkWorkflows, workflowOperations } from './workflowrefs';

/** goTo types that are not entities but have their own query validation (SPEC 5, 7). */
export const PSEUDO_NAVIGATION_TYPES = ['home', 'epc', 'import', 'lot'];
const RESERVED_FIELD_IDS = new Set(['id', 'extensions']);

/** Checks what a meta-schema cannot: names that must point at other definitions. */
export function checkCrossReferences(p: Parsed): Problem[] {
  const out: Problem[] = [];
  const add = (file: string, pointer: string, message: string) => out.push({ file, pointer, message });
  const accessKeys = new Set(p.access!.def.keys.map((k) => k.key));
  const entityNames = new Set(p.entities.keys());
  const checkAccess = (file: string, pointer: string, key: string | undefined) => {
    if (key !== undefined && !accessKeys.has(key)) add(file, pointer, `access key "${key}" is not declared in schemas/access.json`);
  };

  const checkFields = (file: string, pointer: string, fields: FieldDef[], top: boolean) => {
    const seen = new Set<string>();
    // A CSV column may be headed by a field's label in any language: two siblings sharing one would make it ambiguous.
    const labels = new Map<string, string>();
    fields.forEach((f, i) => {
      const at = `${pointer}/${i}`;
      if (seen.has(f.id)) add(file, `${at}/id`, `field "${f.id}" is declared twice`);
      seen.add(f.id);
      for (const [lang, text] of Object.entries(f.label ?? {})) {
        const key = `${lang}\u0000${String(text).trim().toLowerCase()}`;
        const other = labels.get(key);
        if (other !== undefined && other !== f.id) add(file, `${at}/label/${lang}`, `label "${String(text)}" (${lang}) is also field "${other}"'s: an import column headed by it would be ambiguous`);
        else labels.set(key, f.id);
      }
      if (top && RESERVED_FIELD_IDS.has(f.id)) add(file, `${at}/id`, `"${f.id}" is reserved for the system`);
      if (f.ref !== undefined && !entityNames.has(f.ref)) add(file, `${at}/ref`, `reference target "${f.ref}" is not an entity${suggest(f.ref, entityNames)}`);
      if (f.options) {
        const values = f.options.map((o) => o.value);
        if (new Set(values.map(String)).size !== values.length) add(file, `${at}/options`, 'option values must be unique');
        const defaults = f.default === undefined ? [] : Array.isArray(f.default) ? f.default : [f.default];
        for (const d of defaults) {
          if (!values.some((v) => v === d)) add(file, `${at}/default`, `default ${JSON.stringify(d)} is not one of the options`);
        }
      }
      if (f.fractionDigits !== undefined && f.type !== 'number') add(file, `${at}/fractionDigits`, 'fractionDigits applies to number fields only');
      if (f.fields) checkFields(file, `${at}/fields`, f.fields, false);
    });
  };

  for (const [name, { file, def }] of p.extensions) {
    if (!entityNames.has(def.base)) add(file, '/base', `base entity "${def.base}" does not exist${suggest(def.base, entityNames)}`);
    checkFields(file, '/fields', def.fields, false);
    void name;
  }

  for (const [name, { file, def }] of p.entities) {
    checkFields(file, '/fields', def.fields, true);
    checkAccess(file, '/access', def.access ?? DEFAULT_ENTITY_ACCESS);
    const extFields = [...p.extensions.values()]
      .filter((e) => e.def.base === name)
      .map((e) => ({ id: e.def.name, label: e.def.label, type: 'object', fields: e.def.fields }) as FieldDef);
    const all: FieldDef[] = [...def.fields, ID_FIELD, { id: 'extensions', label: EXTENSIONS_LABEL, type: 'object', fields: extFields }];
    const checkPath = (pointer: string, path: string) => {
      if (!fieldAt(all, path)) add(file, pointer, `field "${path}" does not exist in ${name} or its extensions`);
    };
    if (def.titleField !== undefined) checkPath('/titleField', def.titleField);
    def.listColumns?.forEach((c, i) => checkPath(`/listColumns/${i}`, c));
    def.importKeys?.forEach((c, i) => checkPath(`/importKeys/${i}`, c));
    def.secretFields?.forEach((c, i) => checkPath(`/secretFields/${i}`, c));
    def.serverFields?.forEach((c, i) => checkPath(`/serverFields/${i}`, c));
    def.uniqueKeys?.forEach((k, i) => k.forEach((c, j) => checkPath(`/uniqueKeys/${i}/${j}`, c)));
    // A synced entity's records carry the sync state the outbox writes, which an index may lead with.
    def.compoundIndexes?.forEach((k, i) => k.forEach((c, j) => (def.sync && c === SYNC_STATUS_PATH ? undefined : checkPath(`/compoundIndexes/${i}/${j}`, c))));
  }

  const access = p.access!;
  const seenKeys = new Set<string>();
  access.def.keys.forEach((k, i) => {
    if (seenKeys.has(k.key)) add(access.file, `/keys/${i}/key`, `access key "${k.key}" is declared twice`);
    seenKeys.add(k.key);
  });
  const templateIds = new Set(access.def.templates.map((t) => t.id));
  access.def.templates.forEach((t, i) => t.keys.forEach((k, j) => checkAccess(access.file, `/templates/${i}/keys/${j}`, k)));
  access.def.profiles.forEach((pr, i) => {
    pr.templates?.forEach((t, j) => { if (!templateIds.has(t)) add(access.file, `/profiles/${i}/templates/${j}`, `template "${t}" is not declared`); });
    pr.keys?.forEach((k, j) => checkAccess(access.file, `/profiles/${i}/keys/${j}`, k));
  });
  // A key's operations are backend operation keys (SPEC 7) or ones a workflow declares it serves.
  const operations = new Set([...access.def.operations, ...[...p.workflows.values()].flatMap(({ def }) => workflowOperations(def))]);
  access.def.keys.forEach((k, i) => k.operations?.forEach((o, j) => {
    if (!operations.has(o)) add(access.file, `/keys/${i}/operations/${j}`, `operation "${o}" is neither in operations nor served by a workflow${suggest(o, operations)}`);
  }));

  const features = p.features!;
  const groupIds = new Set<string>();
  features.def.groups.forEach((g, i) => {
    if (groupIds.has(g.id)) add(features.file, `/groups/${i}/id`, `group "${g.id}" is declared twice`);
    groupIds.add(g.id);
  });
  const featureIds = new Set<string>();
  const navTypes = new Set([...entityNames, ...PSEUDO_NAVIGATION_TYPES]);
  features.def.features.forEach((f, i) => {
    const at = `/features/${i}`;
    if (featureIds.has(f.id)) add(features.file, `${at}/id`, `feature "${f.id}" is declared twice`);
    featureIds.add(f.id);
    if (f.group !== undefined && !groupIds.has(f.group)) add(features.file, `${at}/group`, `menu group "${f.group}" is not declared${suggest(f.group, groupIds)}`);
    checkAccess(features.file, `${at}/access`, f.access);
    f.requiresExtensions?.forEach((e, j) => { if (!p.extensions.has(e)) add(features.file, `${at}/requiresExtensions/${j}`, `extension "${e}" does not exist`); });
    if (f.entity !== undefined && !entityNames.has(f.entity)) add(features.file, `${at}/entity`, `entity "${f.entity}" does not exist`);
    if (f.screen === 'entityList' && f.entity === undefined) add(features.file, `${at}/entity`, 'an entityList screen names its entity');
    f.navigation?.forEach((n, j) => { if (!navTypes.has(n.type)) add(features.file, `${at}/navigation/${j}/type`, `navigation type "${n.type}" is not an entity`); });
    if (f.operation) {
      const wf = p.workflows.get(f.operation.workflow)?.def;
      if (!wf) add(features.file, `${at}/operation/workflow`, `workflow "${f.operation.workflow}" does not exist${suggest(f.operation.workflow, p.workflows.keys())}`);
      else {
        const states = new Set(wf.states.map((s) => s.id));
        f.operation.states?.forEach((s, j) => { if (!states.has(s)) add(features.file, `${at}/operation/states/${j}`, `state "${s}" is not a state of ${wf.name}`); });
        const d = f.operation.depositField;
        if (d !== undefined && !wf.depositFields.includes(d)) add(features.file, `${at}/operation/depositField`, `"${d}" is not one of ${wf.name}'s depositFields`);
        const located = p.entities.get(wf.entity)?.def.fields;
        if (f.operation.map && located && !(fieldAt(located, 'location.lat') && fieldAt(located, 'location.lng'))) {
          add(features.file, `${at}/operation/map`, `entity "${wf.entity}" has no location.lat and location.lng to map`);
        }
      }
    }
  });
  features.def.routes.forEach((r, i) => {
    checkAccess(features.file, `/routes/${i}/access`, r.access);
    if (r.group !== undefined && !groupIds.has(r.group)) add(features.file, `/routes/${i}/group`, `menu group "${r.group}" is not declared`);
  });

  const dep = p.deployment!;
  for (const id of Object.keys(dep.def.features)) {
    if (!featureIds.has(id)) add(dep.file, `/features/${escapePointer(id)}`, `feature "${id}" is not in schemas/features.json`);
  }
  for (const [base, names] of Object.entries(dep.def.extensions)) {
    if (!entityNames.has(base)) add(dep.file, `/extensions/${base}`, `entity "${base}" does not exist`);
    names.forEach((n, j) => {
      const ext = p.extensions.get(n);
      if (!ext) add(dep.file, `/extensions/${base}/${j}`, `extension "${n}" does not exist`);
      else if (ext.def.base !== base) add(dep.file, `/extensions/${base}/${j}`, `extension "${n}" extends "${ext.def.base}", not "${base}"`);
    });
  }
  for (const [base, names] of Object.entries(dep.def.optionalExtensions ?? {})) {
    names.forEach((n, j) => {
      if (!dep.def.extensions[base]?.includes(n)) add(dep.file, `/optionalExtensions/${base}/${j}`, `extension "${n}" is not enabled for "${base}"`);
    });
  }
  dep.def.settings.globalSearch?.forEach((e, i) => { if (!entityNames.has(e)) add(dep.file, `/settings/globalSearch/${i}`, `entity "${e}" does not exist`); });
  const walkMenu = (entries: CustomMenuEntry[], at: string) => entries.forEach((e, i) => {
    checkAccess(dep.file, `${at}/${i}/access`, e.access);
    if (e.children) walkMenu(e.children, `${at}/${i}/children`);
  });
  if (dep.def.settings.customMenu) walkMenu(dep.def.settings.customMenu, '/settings/customMenu');

  checkReportFeatures(p, checkReports(p, add, checkAccess), add);
  checkWorkflows(p, add, checkAccess);
  checkDashboards(p, add, checkAccess);
  checkMobile(p, add);

  const en = p.i18n.get('en')!;
  const codeOf = new Map(Object.entries(ERRORS).flatMap(([code, e]) => bundleTexts(e).map(([key]) => [key, code] as const)));
  for (const [code, e] of Object.entries(ERRORS)) {
    for (const [key, expected] of bundleTexts(e)) {
      const text = en.def[key];
      if (text === undefined) add(en.file, `/${escapePointer(key)}`, `missing the message of ${code}: "${expected}"`);
      else if (text !== expected) add(en.file, `/${escapePointer(key)}`, `must read "${expected}" word for word (${code})`);
    }
  }
  for (const [lang, { file, def }] of p.i18n) {
    // Every key of en.json in every language, a counting key in each plural form the language has.
    const need = requiredKeys(en.def, lang);
    for (const [key, base] of need) {
      if (def[key] !== undefined || lang === 'en') continue;
      const code = codeOf.get(base);
      add(file, `/${escapePointer(key)}`, `key "${key}" is missing (en.json has ${base === key ? 'it' : `"${base}"`})${code ? `: the message of ${code}` : ''}`);
    }
    for (const [key, text] of Object.entries(def)) {
      if (key === '$schema') continue;
      const base = need.get(key);
      if (base === undefined) { add(file, `/${escapePointer(key)}`, `key "${key}" is not in en.json`); continue; }
      if (lang === 'en') continue;
      const want = placeholders(en.def[base]);
      const got = placeholders(text);
      if (want !== got) add(file, `/${escapePointer(key)}`, `placeholders ${got || 'none'} differ from en.json's ${want || 'none'}`);
    }
  }
  return out;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

/**
 * The keys a bundle in `lang` must hold, each with the en.json key it translates: en.json's
 * own keys, but a counting key (i18next's `key_one` / `key_other`) once per plural category
 * of the language (French and Spanish also have `key_many`, which i18next asks for).
 */
export function requiredKeys(en: Readonly<Record<string, string>>, lang: string): Map<string, string> {
  const out = new Map<string, string>();
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
  for (const key of Object.keys(en)) {
    if (key === '$schema') continue;
    const base = key.replace(PLURAL, '');
    if (base === key || en[`${base}_other`] === undefined) { out.set(key, key); continue; }
    for (const c of categories) out.set(`${base}_${c}`, en[`${base}_${c}`] !== undefined ? `${base}_${c}` : `${base}_other`);
    if (lang === 'en') out.set(key, key);
  }
  return out;
}

function placeholders(text: string): string {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort().join(',');
}


/** "did you mean" for a misspelt name: the closest known name within two edits. */
function suggest(name: string, known: Iterable<string>): string {
  let best: string | undefined;
  let bestDistance = 3;
  for (const k of known) {
    const d = distance(name.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) { best = k; bestDistance = d; }
  }
  return best ? ` (did you mean "${best}"?)` : '';
}

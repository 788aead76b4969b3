import type {
  AccessDef, DeploymentDef, EntityDefinition, ExtensionDef, FeatureCatalogue, I18nBundle, ReportDefinition, WorkflowDef,
} from '../types';
import type { Lang } from '../text';
import { describeMetaErrors, metaValidator, type DefinitionKind } from './meta';
import type { Problem } from './problems';
import { deepFreeze, type Registry } from './registry';
import { checkCrossReferences } from './crossrefs';
import { sanitiseAccess, sanitiseDashboard, sanitiseEntity, sanitiseExtension, sanitiseFeatures, sanitiseReport, sanitiseWorkflow } from './sanitise';
import type { DashboardDefinition } from '../dashboards/types';
import type { MobileDefinition } from '../mobile/types';
import { sanitiseMobile } from './mobilerefs';

/** A definition file as read from disk: its path relative to the project root, and its text. */
export interface DefinitionSource {
  path: string;
  text: string;
}

export interface LoadResult {
  registry?: Registry;
  problems: Problem[];
}

function kindOf(path: string): DefinitionKind | undefined {
  if (/^schemas\/entities\/[^/]+\.json$/.test(path)) return 'entity';
  if (/^schemas\/extensions\/[^/]+\.json$/.test(path)) return 'extension';
  if (/^schemas\/workflows\/[^/]+\.json$/.test(path)) return 'workflow';
  if (/^schemas\/i18n\/[^/]+\.json$/.test(path)) return 'i18n';
  if (path === 'schemas/features.json') return 'features';
  if (path === 'schemas/access.json') return 'access';
  if (path === 'schemas/deployment.json') return 'deployment';
  if (path === 'schemas/mobile.json') return 'mobile';
  if (/^reports\/[^/]+\.json$/.test(path)) return 'report';
  if (/^schemas\/dashboards\/[^/]+\.json$/.test(path)) return 'dashboard';
  return undefined;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.json$/, '');
}

function parse(src: DefinitionSource, problems: Problem[]): unknown {
  try {
    return JSON.parse(src.text);
  } catch (e) {
    problems.push({ file: src.path, pointer: '/', message: `invalid JSON: ${(e as Error).message}` });
    return undefined;
  }
}

/** Parsed, meta-valid definitions keyed by kind, with the file each came from. */
export interface Parsed {
  entities: Map<string, { file: string; def: EntityDefinition }>;
  extensions: Map<string, { file: string; def: ExtensionDef }>;
  workflows: Map<string, { file: string; def: WorkflowDef }>;
  reports: Map<string, { file: string; def: ReportDefinition }>;
  dashboards: Map<string, { file: string; def: DashboardDefinition }>;
  i18n: Map<string, { file: string; def: I18nBundle }>;
  features?: { file: string; def: FeatureCatalogue };
  access?: { file: string; def: AccessDef };
  deployment?: { file: string; def: DeploymentDef };
  /** schemas/mobile.json: optional (no file, no mobile features). */
  mobile?: { file: string; def: MobileDefinition };
}

/**
 * Checks every definition against its meta-schema and the cross-references between them,
 * and returns the frozen registry only when nothing is wrong, with every default applied
 * (./sanitise.ts).
 */
export function loadRegistry(sources: DefinitionSource[]): LoadResult {
  const problems: Problem[] = [];
  const parsed: Parsed = { entities: new Map(), extensions: new Map(), workflows: new Map(), reports: new Map(), dashboards: new Map(), i18n: new Map() };
  for (const src of [...sources].sort((a, b) => a.path.localeCompare(b.path))) {
    const kind = kindOf(src.path);
    if (!kind) continue;
    const value = parse(src, problems);
    if (value === undefined) continue;
    const validate = metaValidator(kind);
    if (!validate(value)) {
      for (const p of describeMetaErrors(validate.errors)) problems.push({ file: src.path, ...p });
      continue;
    }
    const name = baseName(src.path);
    const keyed = (def: { name?: string; key?: string }, map: Map<string, { file: string; def: never }>, field: 'name' | 'key') => {
      const id = def[field] as string;
      if (id !== name) problems.push({ file: src.path, pointer: `/${field}`, message: `${field} "${id}" must equal the file name "${name}"` });
      else if (map.has(id)) problems.push({ file: src.path, pointer: `/${field}`, message: `"${id}" is defined twice` });
      else map.set(id, { file: src.path, def: def as never });
    };
    switch (kind) {
      case 'entity': keyed(value as EntityDefinition, parsed.entities as never, 'name'); break;
      case 'extension': keyed(value as ExtensionDef, parsed.extensions as never, 'name'); break;
      case 'workflow': keyed(value as WorkflowDef, parsed.workflows as never, 'name'); break;
      case 'report': keyed(value as ReportDefinition, parsed.reports as never, 'key'); break;
      case 'dashboard': keyed(value as DashboardDefinition, parsed.dashboards as never, 'key'); break;
      case 'i18n': parsed.i18n.set(name, { file: src.path, def: value as I18nBundle }); break;
      case 'features': parsed.features = { file: src.path, def: value as FeatureCatalogue }; break;
      case 'access': parsed.access = { file: src.path, def: value as AccessDef }; break;
      case 'deployment': parsed.deployment = { file: src.path, def: value as DeploymentDef }; break;
      case 'mobile': parsed.mobile = { file: src.path, def: value as MobileDefinition }; break;
    }
  }
  for (const [file, present] of [
    ['schemas/features.json', parsed.features],
    ['schemas/access.json', parsed.access],
    ['schemas/deployment.json', parsed.deployment],
    ['schemas/i18n/en.json', parsed.i18n.get('en')],
  ] as const) {
    if (!present && !problems.some((p) => p.file === file)) problems.push({ file, pointer: '/', message: 'file is missing' });
  }
  if (problems.length === 0) problems.push(...checkCrossReferences(parsed));
  if (problems.length > 0) return { problems };

  const values = <T, U = T>(m: Map<string, { def: T }>, sanitise: (def: T) => U = (d) => d as unknown as U) =>
    Object.fromEntries([...m].map(([k, v]) => [k, sanitise(v.def)]));
  const workflows = [...parsed.workflows.values()].map((w) => w.def);
  const host = parsed.deployment!.def.name;
  // Keyed by the key a request names: {host} replaced (the file keeps it).
  const reports = Object.fromEntries([...parsed.reports.values()].map(({ def }) => sanitiseReport(def, workflows, host)).map((r) => [r.key, r]));
  const registry: Registry = deepFreeze({
    entities: values(parsed.entities, sanitiseEntity),
    extensions: values(parsed.extensions, sanitiseExtension),
    workflows: values(parsed.workflows, sanitiseWorkflow),
    reports,
    dashboards: values(parsed.dashboards, (d) => sanitiseDashboard(d, reports, host)),
    i18n: values(parsed.i18n) as Partial<Record<Lang, I18nBundle>>,
    features: sanitiseFeatures(parsed.features!.def),
    access: sanitiseAccess(parsed.access!.def),
    deployment: parsed.deployment!.def,
    mobile: parsed.mobile
      ? sanitiseMobile(parsed.mobile.def)
      : { appVersion: parsed.deployment!.def.settings.mobileAppVersion, termsVersion: parsed.deployment!.def.settings.terms.mobileVersion, features: [] },
  });
  return { registry, problems: [] };
}

import type { LocalText } from './text';

export type FieldType =
  | 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'datetime' | 'object' | 'reference' | 'file';

export type Scalar = string | number | boolean;

export interface OptionDef {
  value: Scalar;
  label: LocalText;
  disabled?: boolean;
}

export interface FieldDef {
  id: string;
  label: LocalText;
  help?: LocalText;
  /** A valid value for the CSV template's example row. */
  example?: string;
  type: FieldType;
  ref?: string;
  widget?: string;
  required?: boolean;
  unique?: boolean;
  searchable?: boolean;
  sortable?: boolean;
  multiple?: boolean;
  hidden?: boolean;
  disabled?: boolean;
  preview?: boolean;
  optionalOnImport?: boolean;
  immutable?: boolean;
  pattern?: string;
  options?: OptionDef[];
  default?: unknown;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  fractionDigits?: number;
  /** A symbol (kWh/kg), or a text per language when the unit has words (units/day). */
  unit?: string | LocalText;
  accept?: string[];
  maxSizeBytes?: number;
  minChars?: number;
  fields?: FieldDef[];
}

/** An entity as written in schemas/entities/<name>.json: optional parts fall back to defaults. */
export interface EntityDefinition {
  name: string;
  kind: 'master' | 'event' | 'system' | 'operation';
  label: LocalText;
  pluralLabel: LocalText;
  description?: LocalText;
  titleField?: string;
  access?: string;
  importable?: boolean;
  sync?: boolean;
  uniqueKeys?: string[][];
  importKeys?: string[];
  secretFields?: string[];
  serverFields?: string[];
  listColumns?: string[];
  fields: FieldDef[];
}

/**
 * An entity as the registry holds it: every default applied once when it is loaded
 * (engine/src/registry/sanitise.ts), so no reader falls back on its own.
 */
export interface EntityDef extends Omit<EntityDefinition, 'titleField' | 'access' | 'importable' | 'importKeys' | 'secretFields' | 'serverFields' | 'listColumns'> {
  /** The field a record shows as when another points to it; `id` when the definition names none. */
  readonly titleField: string;
  readonly access: string;
  readonly importable: boolean;
  readonly importKeys: readonly string[];
  readonly secretFields: readonly string[];
  readonly serverFields: readonly string[];
  readonly listColumns: readonly string[];
}

export interface ExtensionDef {
  name: string;
  base: string;
  label: LocalText;
  description?: LocalText;
  demo?: boolean;
  template?: boolean;
  fields: FieldDef[];
}

export interface NavigationDef {
  type: string;
  order: number;
}

export interface MenuGroupDef {
  id: string;
  label: LocalText;
  icon?: string;
  order: number;
  path?: string;
}

export interface FixedRouteDef {
  id: string;
  path: string;
  name: LocalText;
  screen: string;
  icon?: string;
  noMenu?: boolean;
  noAuth?: boolean;
  hideNavbar?: boolean;
  group?: string;
  access?: string;
  order?: number;
}

export interface FeatureDef {
  id: string;
  path: string;
  name: LocalText;
  group?: string;
  access?: string;
  homePriority?: number;
  requiresExtensions?: string[];
  render: 'external' | 'generated';
  screen?: string;
  entity?: string;
  src?: string;
  customerModule?: boolean;
  frameData?: boolean;
  order?: number;
  icon?: string;
  noMenu?: boolean;
  noAuth?: boolean;
  force?: boolean;
  hideNavbar?: boolean;
  pathSuffix?: string;
  navigation?: NavigationDef[];
  /** A framed feature drawn by the guest app from a workflow (issue 15): its list, form and detail. */
  operation?: OperationFeatureDef;
}

/**
 * Which records of a workflow a feature shows: `depositField` is the side the selected
 * warehouse narrows on (the receiver's deposit for receptions; default: any of the workflow's
 * depositFields), `states` limits the list (a work tray), `create` offers the new-record form.
 */
export interface OperationFeatureDef {
  workflow: string;
  depositField?: string;
  states?: string[];
  create?: boolean;
  /** A measures panel above the list: `ibc`, the customer holdings and fleet measures (issue 16). */
  measures?: 'ibc';
  /** A map of the listed records that have `location.lat` / `location.lng`. */
  map?: boolean;
}

export interface FeatureCatalogue {
  groups: MenuGroupDef[];
  routes: FixedRouteDef[];
  features: FeatureDef[];
}

export interface AccessKeyDef {
  key: string;
  label: LocalText;
  customerModule?: boolean;
  /**
   * The backend operation keys (SPEC 7) this key grants: every route and transition declaring one
   * of them. A mobile feature key (SPEC 6) lists the operations it needs and nothing else.
   */
  operations?: string[];
}

export interface AccessDef {
  superadmin: string;
  keys: AccessKeyDef[];
  templates: { id: string; label: LocalText; keys: string[] }[];
  profiles: { id: string; label: LocalText; templates?: string[]; keys?: string[] }[];
  operations: string[];
}

export interface CustomMenuEntry {
  id: string;
  path?: string;
  access?: string;
  label?: LocalText;
  children?: CustomMenuEntry[];
}

export interface DeploymentSettings {
  defaultLocale: string;
  languages: { available: string[]; menu: string[]; default: string | null; hideSelection: boolean };
  apiCache: { defaultTtlMs: number; ttlMs: number | null; requestTimeoutMs: number };
  picker: { pageSize: number; minChars: number; debounceMs: number };
  autocompleteMinChars: number;
  toast: { lifeMs: number; baseZIndex: number };
  timings: { signInSpinnerMs: number; languagePushDelayMs: number; carbonHealthCheckIntervalMs: number };
  passwordResetValidityMs: number;
  passwordStrength: { mediumMinLength: number; strongMinLength: number };
  initialsMaxLetters?: number;
  terms: { display: boolean; requiredVersion: number; mobileVersion: number };
  version: { show: boolean; label: string };
  mobileAppVersion: string;
  materialPackageIds: Record<string, number>;
  showIcons: boolean;
  /** IBC fleet rules (ADR 4.1.1.15, 6.5.4.4), see deployment.schema.json. */
  ibc: IbcSettings;
  logo?: string | null;
  customMenu?: CustomMenuEntry[] | null;
  globalSearch?: string[];
  /**
   * The embedded feature frame. featuresOrigin: an absolute URL for a separate features host,
   * or a path of the shell's own server (default "/features"); allowedOrigins: the shell
   * origins that may frame features and post to the shell (none: the shell's own origin).
   * See resolveFrame.
   */
  frame: { featuresOrigin?: string; baseDomain: string; indexPage: string; allowedOrigins?: string[]; mainOrigin?: string };
  signIn: {
    providers: { id: string; kind: string; label?: LocalText | string }[];
    accountExpiry?: string | null;
    allowedDomains?: string[];
    ssoRoleMapping?: Record<string, unknown>;
  };
  integrations?: Record<string, unknown>;
  /** The map under location fields; without it, no tiles are fetched (web/src/masterdata/widgets/mapLogic.ts). */
  map?: {
    tileUrl?: string;
    attribution?: string;
    maxZoom?: number;
    center?: { lat?: number; lng?: number };
    zoom?: number;
  };
}

export interface IbcSettings {
  /** Months between periodic inspections (ADR: 2.5 years). */
  inspectionIntervalMonths: number;
  /** Service life of rigid plastic and composite IBCs from manufacture (ADR: 5 years). */
  lifetimeYears: number;
  /** Days before an inspection or end of life when the alert is raised. */
  alertDaysBefore: number;
  /** Days at a customer after which an IBC not returned counts as lost. */
  lossAfterDays: number;
}

export interface DeploymentDef {
  name: string;
  label?: LocalText | string;
  features: Record<string, boolean>;
  extensions: Record<string, string[]>;
  /** Enabled extensions with required fields that a record may still go without, per base entity. */
  optionalExtensions?: Record<string, string[]>;
  settings: DeploymentSettings;
}

export interface ReportColumnDef {
  id: string;
  label: LocalText;
  type: string;
  field?: string;
  subField?: string;
  sap?: boolean;
}

export interface ReportDef {
  key: string;
  label: LocalText;
  category: 'product' | 'ibc' | 'bulk' | 'other';
  access?: string;
  source: { entity: string; query?: string; responseField?: string };
  pipeline?: Record<string, unknown>[];
  filters?: { id: string; label: LocalText; type: string; field: string; options?: OptionDef[] }[];
  dedupeBy?: string[];
  sort?: Record<string, 1 | -1>;
  limit?: number;
  columns: ReportColumnDef[];
  export: { fileName: string; format: 'csv' };
}

/** The registry's workflow: the definition as checked (engine/src/workflow/types.ts). */
export type { WorkflowDefinition as WorkflowDef } from './workflow/types';

export type I18nBundle = Record<string, string>;

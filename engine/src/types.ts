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
  /** Indexes over several fields, in order (entity.schema.json). */
  compoundIndexes?: string[][];
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
  /** A framed feature drawn by the guest app from report definitions (issue 17). */
  report?: ReportFeatureDef;
  /** A framed feature the guest app draws from the server's operations routes (issue 18). */
  monitoring?: MonitoringFeatureDef;
  /** A framed feature the guest app draws from a dashboard definition (issue 19). */
  dashboard?: DashboardFeatureDef;
  /** A framed feature the guest app draws from the trace routes (issue 19). */
  trace?: TraceFeatureDef;
}

/** The dashboard definition (schemas/dashboards/<key>.json) a feature shows. */
export interface DashboardFeatureDef {
  key: string;
}

/** map: a trace as a graph and on a map, with its exports; events: the events behind a trace, or every event; history: one lot's story. */
export interface TraceFeatureDef {
  view: 'map' | 'events' | 'history';
}

/** caches: the server's caches and this browser's cached GET answers, listed and cleared (/cache-manager). */
export interface MonitoringFeatureDef {
  view: 'caches';
}

/** catalogue: the reports a user may run, by category; print: one report print-ready (key and filters in the address); single: the report `key` alone. */
export interface ReportFeatureDef {
  view: 'catalogue' | 'print' | 'single';
  key?: string;
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
  /** Declarations to the authority: each declarable workflow's legal deadline, see deployment.schema.json. */
  sync?: SyncSettings;
  /** The map under location fields; without it, no tiles are fetched (web/src/masterdata/widgets/mapLogic.ts). */
  map?: {
    tileUrl?: string;
    attribution?: string;
    maxZoom?: number;
    center?: { lat?: number; lng?: number };
    zoom?: number;
  };
}

export interface SyncSettings {
  /** Minutes from the declared state to the legal deadline, per declarable workflow (every one has its own). */
  deadlineMinutes: Record<string, number>;
  /** A record not yet synced is due soon once less than this share (in %) of its window is left. */
  dueSoonPercent: number;
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

/** A report's column (SPEC 3.5): what a cell shows, on the screen and in the CSV alike. */
export interface ReportColumnDef {
  id: string;
  label: LocalText;
  /**
   * text (a localized text object shows in the user's language), number, date_text (YYYY-MM-DD),
   * age (whole years since the date), array (the `subField` of every element, joined by "; "),
   * object (its `subField`), status (the state's label in the `workflow`), conditional_action (the
   * value as a link opening the record `action` names, when its `when` matches the row).
   */
  type: 'text' | 'number' | 'date_text' | 'age' | 'array' | 'object' | 'status' | 'conditional_action';
  /** Dotted path in the row; sanitised: defaults to the column id. */
  field: string;
  subField?: string;
  sap?: boolean;
  /** status: the workflow whose state labels show; sanitised: defaults to the report's `statusOf`. */
  workflow?: string;
  /** conditional_action: the record the link opens (an operation of `workflow`, or an IBC of the `ibc` workflow). */
  action?: { workflow: string; idField: string; when?: Record<string, unknown> };
  /** Whether the screen may sort on it; sanitised: true unless the column is an array or object. */
  sortable: boolean;
}

/**
 * A declared filter. `on: "source"` (default): `field` is a path of the source entity, applied
 * in the pipeline's leading $match (indexes serve it); `on: "row"`: a path of the report's rows,
 * applied after the pipeline. Values come as query parameters named by `id` (`<id>.from`,
 * `<id>.to` for date_range; `<id>.min`, `<id>.max` for number_range; a comma-separated list
 * for select and status).
 */
export interface ReportFilterDef {
  id: string;
  label: LocalText;
  type: 'text' | 'select' | 'status' | 'reference' | 'date_range' | 'number_range' | 'boolean';
  field: string;
  on: 'source' | 'row';
  options?: OptionDef[];
  /** reference: the entity picked (its id matched). */
  ref?: string;
  /** status: the workflow whose states are the options; sanitised: the report's `statusOf`. */
  workflow?: string;
}

/** A report file as written (reports/<key>.json); the registry holds it sanitised (ReportDef). */
/**
 * A stored summary that answers a report faster (one document per row the report's pipeline
 * would group), read instead of `source.entity` when the request narrows nothing but `filters`
 * (ids of the report's source filters whose field the summary holds with the same meaning) and
 * no warehouse group is selected. `pipeline` gives the same rows from it.
 */
export interface ReportSummaryDef {
  entity: string;
  filters: string[];
  pipeline: Record<string, unknown>[];
}

export interface ReportDefinition {
  key: string;
  label: LocalText;
  description?: LocalText;
  category: 'product' | 'ibc' | 'bulk' | 'other' | 'monitoring';
  access?: string;
  source: { entity: string; query: string; responseField: string };
  pipeline?: Record<string, unknown>[];
  summary?: ReportSummaryDef;
  depositFields?: string[];
  ownerField?: string;
  statusOf?: string;
  filters?: (Omit<ReportFilterDef, 'on'> & { on?: 'source' | 'row' })[];
  dedupeBy?: string[];
  sort?: Record<string, 1 | -1>;
  limit?: number;
  columns: (Omit<ReportColumnDef, 'field' | 'sortable'> & { field?: string; sortable?: boolean })[];
  export: { fileName: string; format: 'csv' };
}

/**
 * A report as the registry holds it: `{host}` in the key and file name replaced by the
 * deployment's name, defaults applied once (access "Reports", pipeline [], depositFields and
 * ownerField from the source entity's workflow, statusOf = that workflow, sort = the first
 * date column descending).
 */
export interface ReportDef {
  key: string;
  label: LocalText;
  description?: LocalText;
  category: 'product' | 'ibc' | 'bulk' | 'other' | 'monitoring';
  access: string;
  source: { entity: string; query: string; responseField: string };
  pipeline: Record<string, unknown>[];
  summary?: ReportSummaryDef;
  /** Source fields naming deposits: rows are narrowed to the selected warehouse group on them. [] = not narrowed. */
  depositFields: string[];
  /** Source field naming the owning company: a row it owns is in the group wherever it is. */
  ownerField?: string;
  /** The workflow whose state labels status columns and filters use. */
  statusOf?: string;
  filters: ReportFilterDef[];
  /** Rows with equal values at these row paths are one row (the first in source order). */
  dedupeBy?: string[];
  /** Default sort, row paths (column fields). */
  sort: Record<string, 1 | -1>;
  /** At most this many rows (a top ten). */
  limit?: number;
  columns: ReportColumnDef[];
  export: { fileName: string; format: 'csv' };
}

/** The registry's workflow: the definition as checked (engine/src/workflow/types.ts). */
export type { WorkflowDefinition as WorkflowDef } from './workflow/types';

export type I18nBundle = Record<string, string>;

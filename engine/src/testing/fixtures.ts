import type { DefinitionSource } from '../registry/load';
import { loadRegistry } from '../registry/load';
import type { Registry } from '../registry/registry';
import { bundleTexts, ERRORS } from '../errors';
import { requiredKeys } from '../registry/crossrefs';

const t = (en: string, es = `${en} (es)`, fr = `${en} (fr)`) => ({ en, es, fr });

/**
 * English messages of the error catalogue, in i18n form, so fixtures pass the word-for-word
 * check; for another language, with the plural forms that language needs.
 */
export function catalogueBundle(lang = 'en'): Record<string, string> {
  const en: Record<string, string> = Object.fromEntries(Object.values(ERRORS).flatMap((e) => bundleTexts(e)));
  return Object.fromEntries([...requiredKeys(en, lang)].map(([key, base]) => [key, en[base]]));
}

/** A small, valid set of definitions; tests override parts of it to break it on purpose. */
export function fixtureSources(over: Partial<Record<string, unknown>> = {}): DefinitionSource[] {
  const files: Record<string, unknown> = {
    'schemas/entities/company.json': {
      name: 'company', kind: 'master', label: t('Company'), pluralLabel: t('Companies'), titleField: 'company_name',
      fields: [
        { id: 'company_name', label: t('Company name'), type: 'string', required: true, searchable: true },
        { id: 'email', label: t('Email'), type: 'string', pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' },
        { id: 'phone_number', label: t('Phone number'), type: 'string', multiple: true },
        { id: 'parent_company_id', label: t('Parent company'), type: 'reference', ref: 'company' },
        { id: 'state', label: t('State'), type: 'integer', required: true, default: 1, options: [{ value: 1, label: t('Active') }, { value: 3, label: t('Disabled') }] },
      ],
    },
    'schemas/entities/material.json': {
      name: 'material', kind: 'master', label: t('Material'), pluralLabel: t('Materials'),
      fields: [
        { id: 'name', label: t('Name'), type: 'string', required: true },
        { id: 'is_traceable', label: t('Traceable'), type: 'boolean' },
        { id: 'quantity', label: t('Quantity'), type: 'number' },
        { id: 'made_on', label: t('Made on'), type: 'date' },
        { id: 'inputs', label: t('Inputs'), type: 'object', multiple: true, required: true, fields: [
          { id: 'material', label: t('Material'), type: 'reference', ref: 'material', required: true },
          { id: 'quantity', label: t('Quantity'), type: 'number', required: true, optionalOnImport: true },
        ] },
      ],
    },
    'schemas/extensions/companyInfo.json': {
      name: 'companyInfo', base: 'company', label: t('Company info'),
      fields: [
        { id: 'erp_id', label: t('ERP id'), type: 'string', unique: true },
        { id: 'cuit', label: t('CUIT'), type: 'string', required: true, immutable: true, optionalOnImport: true },
      ],
    },
    'schemas/features.json': {
      groups: [
        { id: 'dashboards', label: t('Dashboards'), order: 1 },
        { id: 'perf', label: t('Traceability Performance'), order: 2 },
        { id: 'perf2', label: t('Traceability Performance'), order: 3 },
        { id: 'admin', label: t('Administration'), order: 4 },
      ],
      routes: [
        { id: 'globalsearch', path: '/globalsearch', name: t('Global Search'), screen: 'globalSearch', icon: 'pi pi-search' },
        { id: 'incomingNavigation', path: '/', name: t('Incoming Navigation'), screen: 'incomingNavigation', noMenu: true },
        { id: 'resetPassword', path: '/resetPassword', name: t('Reset Password'), screen: 'resetPassword', noAuth: true, noMenu: true },
        { id: 'notFound', path: '/*', name: t('Not found'), screen: 'notFound', noMenu: true, noAuth: true },
      ],
      features: [
        { id: 'dashboards', path: '/dashboards', name: t('Dashboards'), group: 'dashboards', access: 'Dashboards', homePriority: 100, render: 'external' },
        { id: 'dashboard', path: '/dashboard', name: t('Dashboards'), group: 'dashboards', access: 'Dashboards', homePriority: 90, render: 'external' },
        { id: 'map', path: '/traceability-map', name: t('Map'), group: 'perf', access: 'traceabilityMapUser', render: 'external', navigation: [{ type: 'lot', order: 2 }] },
        { id: 'history', path: '/product-history', name: t('History'), group: 'perf2', access: 'Assets', render: 'external', navigation: [{ type: 'lot', order: 1 }] },
        { id: 'masterdata', path: '/masterdata', name: t('Master Data'), group: 'admin', access: 'Master Data', render: 'generated', screen: 'masterdata', navigation: [{ type: 'company', order: 1 }] },
        { id: 'imports', path: '/imports', name: t('Imports'), group: 'admin', access: 'Imports', render: 'external', customerModule: true },
        { id: 'hidden', path: '/report-old', name: t('Old report'), group: 'admin', access: 'Reports', render: 'external', noMenu: true },
        { id: 'auth', path: 'https://example.org/auth', name: t('Authentication'), group: 'admin', access: 'Reports', render: 'external' },
        { id: 'esg', path: '/esg-performance', name: t('ESG'), group: 'admin', access: 'Reports', render: 'external', requiresExtensions: ['companyInfo'] },
        { id: 'undeployed', path: '/demo', name: t('Demo'), group: 'admin', render: 'external' },
      ],
    },
    'schemas/access.json': {
      superadmin: 'superadmin',
      keys: [
        ...['Dashboards', 'traceabilityMapUser', 'Assets', 'Master Data', 'Imports', 'Reports'].map((key) => ({ key, label: t(key), customerModule: key === 'Imports' || undefined })),
        { key: 'ibc.mobile.returns', label: t('IBC Returns'), operations: ['fetchReturns', 'getIBC'] },
      ],
      templates: [{ id: 'viewer', label: t('Viewer'), keys: ['Dashboards', 'Reports'] }],
      profiles: [{ id: 'traceabilityMapUser', label: t('Map user'), templates: ['viewer'], keys: ['traceabilityMapUser'] }],
      operations: ['fetchReturns', 'getIBC'],
    },
    'schemas/deployment.json': {
      name: 'test',
      features: { dashboards: true, dashboard: true, map: true, history: true, masterdata: true, imports: true, hidden: true, auth: true, esg: true, undeployed: false },
      extensions: { company: ['companyInfo'] },
      settings: {
        defaultLocale: 'en-US',
        languages: { available: ['en', 'es'], menu: ['en', 'fr', 'es'], default: null, hideSelection: false },
        apiCache: { defaultTtlMs: 300000, ttlMs: 0, requestTimeoutMs: 0 },
        picker: { pageSize: 20, minChars: 3, debounceMs: 500 },
        autocompleteMinChars: 2,
        toast: { lifeMs: 8000, baseZIndex: 10000 },
        timings: { signInSpinnerMs: 800, languagePushDelayMs: 1000, carbonHealthCheckIntervalMs: 43200000 },
        passwordResetValidityMs: 7200000,
        passwordStrength: { mediumMinLength: 6, strongMinLength: 8 },
        terms: { display: true, requiredVersion: 0, mobileVersion: 2 },
        version: { show: false, label: '2.0' },
        mobileAppVersion: '1.1.0',
        materialPackageIds: { ibc: 71, bulk: 1 },
        showIcons: true,
        ibc: { inspectionIntervalMonths: 30, lifetimeYears: 5, alertDaysBefore: 30, lossAfterDays: 180 },
        sync: { deadlineMinutes: { shipment: 15 }, dueSoonPercent: 25 },
        globalSearch: ['company'],
        frame: { featuresOrigin: 'http://127.0.0.1:3000/features', baseDomain: 'localhost', indexPage: 'index.html', allowedOrigins: [] },
        signIn: { providers: [] },
      },
    },
    'schemas/i18n/en.json': { ...catalogueBundle(), 'signIn.prompt': 'Please sign-in below' },
    'schemas/i18n/es.json': { ...catalogueBundle('es'), 'signIn.prompt': 'Por favor, inicie sesión' },
    ...over,
  };
  return Object.entries(files)
    .filter(([, v]) => v !== undefined)
    .map(([path, v]) => ({ path, text: typeof v === 'string' ? v : JSON.stringify(v, null, 2) }));
}

export function fixtureRegistry(): Registry {
  const { registry, problems } = loadRegistry(fixtureSources());
  if (!registry) throw new Error(problems.map((p) => `${p.file}:${p.pointer}: ${p.message}`).join('\n'));
  return registry;
}

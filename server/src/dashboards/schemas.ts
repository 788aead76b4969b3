/** The dashboard routes' JSON schemas (docs/api.md "Dashboards"); filters are the dashboard's own, checked by parseDashboardFilters. */
import dashboardMeta from '../../../schemas/meta/dashboard.schema.json';

// The examples name a dashboard and widget every deployment has, so a fuzzer given the document reaches past the 404.
const key = { type: 'string', minLength: 1, maxLength: 80, pattern: '^[A-Za-z][A-Za-z0-9_]*$', examples: ['home'] } as const;
const widget = { type: 'string', minLength: 1, maxLength: 80, pattern: '^[A-Za-z][A-Za-z0-9_]*$', examples: ['shipments'] } as const;

export const keyParam = { type: 'object', required: ['key'], properties: { key } } as const;
export const filterParams = { type: 'object', required: ['key', 'filter'], properties: { key, filter: { ...widget, examples: ['deposit'] } } } as const;
export const optionsQuery = {
  type: 'object', additionalProperties: false,
  properties: { q: { type: 'string', maxLength: 80, description: 'Part of the title, any case.' }, id: { type: 'string', minLength: 1, maxLength: 200, description: 'One record, to show its title.' } },
} as const;
export const optionsAnswer = { 200: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'string' }, title: { type: 'string' } } } } } } } as const;
export const widgetParams = { type: 'object', required: ['key', 'widget'], properties: { key, widget } } as const;

/** Filter values in query-parameter form; `properties` present (empty) so the document lists no parameters rather than this schema's own keywords. */
export const filtersQuery = {
  type: 'object', maxProperties: 20, additionalProperties: { type: 'string', maxLength: 400 }, properties: {},
  description: 'The dashboard\'s declared filters: `<id>.from` / `<id>.to` (YYYY-MM-DD; both absent: the filter\'s default period, present and empty: open) for a period, `<id>` (a record id) for a record.',
} as const;

const localText = { type: 'object', required: ['en'], properties: { en: { type: 'string' }, es: { type: 'string' }, fr: { type: 'string' } } } as const;
/** A label as data carries it: plain text, or a text in each language for the screen to pick. */
const label = { anyOf: [{ type: 'string' }, localText] } as const;
const anyObject = { type: 'object', additionalProperties: true } as const;
const widgetTypes = dashboardMeta.definitions.widget.properties.type.enum;

/** One widget's data (engine WidgetData): a KPI's value, a chart's categories and series, a map's points, a table's first rows. */
const widgetData = {
  type: 'object', required: ['kind'],
  properties: {
    kind: { type: 'string', enum: widgetTypes },
    value: { type: 'number', description: 'kpi' },
    state: { type: 'string', enum: ['good', 'bad'], description: 'kpi with a goal: bad above its max or below its min' },
    categories: { type: 'array', items: { type: 'object', required: ['key', 'label'], properties: { key: { type: 'string' }, label } } },
    series: { type: 'array', items: { type: 'object', required: ['key', 'label', 'values'], properties: { key: { type: 'string' }, label, values: { type: 'array', items: { type: 'number' } } } } },
    more: { type: 'integer', description: 'chart: categories left out past its limit' },
    points: {
      type: 'array',
      items: {
        type: 'object', required: ['key', 'label', 'lat', 'lng', 'value'],
        properties: {
          key: { type: 'string' }, label, lat: { type: 'number' }, lng: { type: 'number' }, value: { type: 'number' },
          series: { type: 'array', items: { type: 'object', properties: { key: { type: 'string' }, label, value: { type: 'number' } } } },
        },
      },
    },
    unplaced: { type: 'number', description: 'map: what was measured at records with no place' },
    rows: { type: 'array', items: anyObject, description: 'table: the report\'s first rows, its columns as the report\'s catalogue entry names them' },
    hasMore: { type: 'boolean' },
  },
} as const;

const errorBody = {
  type: 'object', required: ['code', 'message'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: 'array', items: anyObject }, params: anyObject },
} as const;

export const widgetAnswer = { 200: { ...widgetData, properties: { ...widgetData.properties, id: { type: 'string' } } } } as const;

export const dataAnswer = {
  200: {
    type: 'object', required: ['key', 'filters', 'widgets'],
    properties: {
      key: { type: 'string' },
      filters: { type: 'object', additionalProperties: { type: 'string' }, description: 'The filters the data was read with, in query-parameter form (defaults applied).' },
      widgets: {
        type: 'array',
        items: { type: 'object', required: ['id', 'status'], properties: { id: { type: 'string' }, status: { type: 'integer' }, data: widgetData, error: errorBody } },
      },
    },
  },
} as const;

const dashboardEntry = {
  type: 'object', required: ['key', 'label', 'access', 'columns', 'filters', 'widgets'],
  properties: {
    key: { type: 'string' }, label: { type: 'string' }, description: { type: 'string' }, access: { type: 'string' }, columns: { type: 'integer' },
    filters: {
      type: 'array',
      items: {
        type: 'object', required: ['id', 'label', 'type'],
        properties: {
          id: { type: 'string' }, label: { type: 'string' }, type: { type: 'string' }, ref: { type: 'string' },
          default: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } } },
        },
      },
    },
    widgets: {
      type: 'array',
      items: {
        type: 'object', required: ['id', 'type', 'title', 'size', 'source', 'allowed'],
        properties: {
          id: { type: 'string' }, type: { type: 'string', enum: widgetTypes }, title: { type: 'string' }, description: { type: 'string' },
          size: { type: 'object', properties: { w: { type: 'integer' }, h: { type: 'integer' } } },
          source: { type: 'object', properties: { report: { type: 'string' }, query: { type: 'string' } } },
          chart: { type: 'string' }, unit: { type: 'string' }, goal: { type: 'object', properties: { max: { type: 'number' }, min: { type: 'number' } } },
          link: { type: 'object', properties: { feature: { type: 'string' }, query: { type: 'object', additionalProperties: { type: 'string' } } } },
          allowed: { type: 'boolean', description: 'Whether you may read it: its report\'s or named query\'s access (its data answers 403 otherwise).' },
        },
      },
    },
  },
} as const;

export const configAnswer = { 200: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: dashboardEntry } } } } as const;
export const oneConfigAnswer = { 200: dashboardEntry } as const;

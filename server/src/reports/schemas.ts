/** The report routes' JSON schemas (CONTRACT17 §4); filters are the report's own, checked by parseReportQuery. */
import reportMeta from '../../../schemas/meta/report.schema.json';

// The examples name reports every deployment has, so a fuzzer given the document reaches past the 404 of an unknown key.
const key = { type: 'string', minLength: 1, maxLength: 120, pattern: '^[A-Za-z0-9_{}.-]+$', examples: ['deliveries_products_report', 'get_alerts_data'] } as const;
const id = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:|-]+$' } as const;
const sort = { type: 'string', maxLength: 400, pattern: '^-?[A-Za-z0-9_.]+(,-?[A-Za-z0-9_.]+)*$', description: 'Column ids, comma-separated; a leading - sorts descending.' } as const;
/** Filter values in query-parameter form: `<id>`, `<id>.from`/`.to` (YYYY-MM-DD), `<id>.min`/`.max`; a comma list for select and status. */
const filterValues = {
  type: 'object', maxProperties: 60, additionalProperties: { type: 'string', maxLength: 400 },
  description: 'The report\'s declared filters: `<id>` (text, reference, boolean, or a comma list for select and status), `<id>.from` / `<id>.to` (YYYY-MM-DD) for a date range, `<id>.min` / `<id>.max` for a number range.',
} as const;

export const keyParam = { type: 'object', required: ['key'], properties: { key } } as const;
export const keyIdParams = { type: 'object', required: ['key', 'id'], properties: { key, id } } as const;
export const idParam = { type: 'object', required: ['id'], properties: { id } } as const;

export const rowsQuery = {
  ...filterValues,
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    pageSize: { type: 'integer', minimum: 1, maximum: 200, description: 'Rows per page (default 20).' },
    sort,
  },
} as const;

// `properties` present (empty) so the document lists no parameters rather than this schema's own keywords.
export const countQuery = { ...filterValues, properties: {} } as const;

export const downloadQuery = {
  type: 'object', additionalProperties: false,
  properties: { token: { type: 'string', minLength: 10, maxLength: 200, description: 'The token of a scheduled report\'s mailed link, or of a link from POST …/link (no sign-in needed with it).' } },
} as const;

export const exportBody = {
  type: 'object', additionalProperties: false,
  properties: { filters: filterValues, sort },
} as const;

export const savedFilterBody = {
  type: 'object', additionalProperties: false, required: ['name'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 80 }, filters: filterValues, sort },
} as const;

export const scheduleBody = {
  type: 'object', additionalProperties: false, required: ['frequency', 'hour'],
  properties: {
    frequency: { type: 'string', enum: ['daily', 'weekly'] },
    weekday: { type: 'integer', minimum: 0, maximum: 6, description: 'Weekly: the day, 0 = Sunday.' },
    hour: { type: 'integer', minimum: 0, maximum: 23, description: 'The hour of the run, UTC.' },
    filters: filterValues,
    sort,
  },
} as const;

const exportDoc = {
  type: 'object', required: ['id', 'report', 'status', 'rows', 'progress', 'fileName', 'createdAt'],
  properties: {
    id: { type: 'string' }, report: { type: 'string' }, status: { type: 'string', enum: ['queued', 'running', 'done', 'failed'] },
    rows: { type: 'integer' }, total: { type: ['integer', 'null'] }, progress: { type: 'number', minimum: 0, maximum: 1 }, fileName: { type: 'string' },
    filters: { type: 'object', additionalProperties: { type: 'string' } }, sort: { type: 'string' },
    createdAt: { type: 'string' }, finishedAt: { type: 'string' }, error: { type: 'string' },
  },
} as const;

export const exportAnswer = { 200: exportDoc } as const;
export const exportLinkAnswer = {
  200: {
    type: 'object', required: ['url', 'expiresAt'],
    properties: { url: { type: 'string', description: 'The download\'s address on this server, with its token.' }, expiresAt: { type: 'string', format: 'date-time' } },
  },
} as const;
export const exportsAnswer = { 200: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: exportDoc } } } } as const;
export const createdExportAnswer = { 202: { type: 'object', required: ['id', 'status'], properties: { id: { type: 'string' }, status: { type: 'string', enum: ['queued'] } } } } as const;

const anyObject = { type: 'object', additionalProperties: true } as const;
const catalogueEntry = {
  type: 'object', required: ['key', 'label', 'category', 'responseField', 'filters', 'columns', 'sort', 'export'],
  properties: {
    key: { type: 'string' }, label: { type: 'string' }, description: { type: 'string' }, category: { type: 'string', enum: reportMeta.properties.category.enum },
    responseField: { type: 'string' },
    filters: {
      type: 'array',
      items: {
        type: 'object', required: ['id', 'label', 'type'],
        properties: {
          id: { type: 'string' }, label: { type: 'string' }, type: { type: 'string' }, ref: { type: 'string' },
          options: { type: 'array', items: { type: 'object', properties: { value: { type: 'string' }, label: { type: 'string' } } } },
        },
      },
    },
    columns: { type: 'array', items: anyObject, description: 'The columns in the caller\'s language (engine reportColumns).' },
    sort: { type: 'string' }, export: { type: 'object', properties: { fileName: { type: 'string' }, format: { type: 'string' } } }, limit: { type: 'integer' },
  },
} as const;
export const catalogueAnswer = { 200: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: catalogueEntry } } } } as const;

export const rowsAnswer = {
  200: {
    type: 'object', required: ['page', 'pageSize', 'hasMore'],
    description: 'The page\'s rows under the report\'s response field (deliveryData, importData, …), as the catalogue names it.',
    properties: { page: { type: 'integer' }, pageSize: { type: 'integer' }, hasMore: { type: 'boolean' } },
    additionalProperties: { type: 'array', items: anyObject },
  },
} as const;
export const countAnswer = { 200: { type: 'object', required: ['total'], properties: { total: { type: 'integer', minimum: 0 } } } } as const;

const filtersShown = { type: 'object', additionalProperties: { type: 'string' } } as const;
const savedFilter = {
  type: 'object', required: ['id', 'name', 'filters', 'createdAt'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, filters: filtersShown, sort: { type: 'string' }, createdAt: { type: 'string' } },
} as const;
const schedule = {
  type: 'object', required: ['id', 'report', 'frequency', 'hour', 'filters', 'email', 'nextRunAt'],
  properties: {
    id: { type: 'string' }, report: { type: 'string' }, frequency: { type: 'string', enum: ['daily', 'weekly'] }, weekday: { type: 'integer' }, hour: { type: 'integer' },
    filters: filtersShown, sort: { type: 'string' }, email: { type: 'string' }, nextRunAt: { type: 'string' }, lastRunAt: { type: 'string' },
  },
} as const;
const deleted = { 204: { type: 'null', description: 'Deleted' } } as const;

export const savedFiltersAnswer = { 200: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: savedFilter } } } } as const;
export const savedFilterCreated = { 201: savedFilter } as const;
export const schedulesAnswer = { 200: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: schedule } } } } as const;
export const scheduleCreated = { 201: schedule } as const;
export const deletedAnswer = deleted;

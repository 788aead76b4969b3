/** The report routes' JSON schemas (CONTRACT17 §4); filters are the report's own, checked by parseReportQuery. */
const key = { type: 'string', minLength: 1, maxLength: 120, pattern: '^[A-Za-z0-9_{}.-]+$' } as const;
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

export const countQuery = filterValues;

export const downloadQuery = {
  type: 'object', additionalProperties: false,
  properties: { token: { type: 'string', minLength: 10, maxLength: 200, description: 'The token of a scheduled report\'s mailed link (no sign-in needed with it).' } },
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
  type: 'object',
  properties: {
    id: { type: 'string' }, report: { type: 'string' }, status: { type: 'string', enum: ['queued', 'running', 'done', 'failed'] },
    rows: { type: 'integer' }, total: { type: ['integer', 'null'] }, progress: { type: 'number' }, fileName: { type: 'string' },
    filters: { type: 'object', additionalProperties: { type: 'string' } }, sort: { type: 'string' },
    createdAt: { type: 'string' }, finishedAt: { type: 'string' }, error: { type: 'string' },
  },
} as const;

export const exportAnswer = { 200: exportDoc } as const;
export const exportsAnswer = { 200: { type: 'object', properties: { data: { type: 'array', items: exportDoc } } } } as const;
export const createdExportAnswer = { 202: { type: 'object', properties: { id: { type: 'string' }, status: { type: 'string' } } } } as const;

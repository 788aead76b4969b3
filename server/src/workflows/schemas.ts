import { MAX_PAGE_SIZE } from '../../../engine/src/index';

const id = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:|-]+$' } as const;
/** An ISO date, or date and time. */
const isoDate = { type: 'string', maxLength: 40, pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})?)?$' } as const;
const page = { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 } as const;
const pageSize = { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 50 } as const;

export const idParam = { type: 'object', required: ['id'], properties: { id } } as const;

export const operationListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    state: { type: 'string', maxLength: 400, description: 'State ids, comma-separated.' },
    from: { ...isoDate, description: 'On or after this date (the workflow\'s date field).' },
    to: { ...isoDate, description: 'On or before this date (a date alone: the whole day).' },
    deposit: { ...id, description: 'A company division id, on the deposit field named or any of the workflow\'s.' },
    depositField: { type: 'string', maxLength: 100, pattern: '^[A-Za-z0-9_.]+$' },
    q: { type: 'string', maxLength: 200, description: 'Case-insensitive search over the searchable fields, from 2 characters.' },
    sync: { type: 'string', enum: ['pending', 'synced', 'failed'], description: 'Senasa Sync: pending (empty status), synced or failed.' },
    page,
    pageSize,
    sort: { type: 'string', maxLength: 200, pattern: '^-?[A-Za-z0-9_.-]+(,-?[A-Za-z0-9_.-]+)*$', description: 'Fields, comma-separated; a leading - sorts descending.' },
  },
} as const;

export const transitionParams = {
  type: 'object',
  required: ['id'],
  properties: { id, transition: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

export const transitionBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    comment: { type: 'string', maxLength: 2000 },
    fields: { type: 'object', additionalProperties: true, description: 'Values for the fields the transition takes as input (e.g. rejected quantities per line).' },
  },
} as const;

export const stockQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { material: id, batch: { type: 'string', minLength: 1, maxLength: 200 }, deposit: id, at: isoDate, page, pageSize },
} as const;

export const batchesQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['material'],
  properties: { material: id, deposit: id },
} as const;

export const movementsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { material: id, batch: { type: 'string', minLength: 1, maxLength: 200 }, deposit: id, page, pageSize },
} as const;

const stockRow = {
  type: 'object',
  properties: {
    material: { type: 'string' }, batch: { type: 'string' }, deposit: { type: 'string' }, quantity: { type: 'number' }, unit: { type: ['string', 'null'] },
    elaborationDate: { type: ['string', 'null'] }, expirationDate: { type: ['string', 'null'] }, daysToExpire: { type: ['integer', 'null'] },
  },
} as const;

export const stockAnswer = { 200: { type: 'object', properties: { data: { type: 'array', items: stockRow }, total: { type: 'integer' } } } } as const;
export const batchesAnswer = { 200: { type: 'object', properties: { data: { type: 'array', items: stockRow } } } } as const;

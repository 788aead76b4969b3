import { idParam, operationListQuery } from '../workflows/schemas';

export { idParam };
/** The operations lists' paging, search and sort, and their id shape. */
const { q, page, pageSize, sort } = operationListQuery.properties;
const id = idParam.properties.id;
const count = { type: 'integer', minimum: 0, maximum: 1_000_000 } as const;
const years = { type: 'integer', minimum: 0, maximum: 200 } as const;
const record = { type: 'object', additionalProperties: true } as const;

export const lookupQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    serial: { type: 'string', minLength: 1, maxLength: 200, description: 'The IBC\'s serial number.' },
    nfc: { type: 'string', minLength: 1, maxLength: 200, description: 'The NFC tag mapped to the IBC.' },
  },
} as const;

export const eventsQuery = { type: 'object', additionalProperties: false, properties: { page, pageSize } } as const;

export const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    state: { type: 'string', maxLength: 400, description: 'IBC statuses, comma-separated.' },
    q,
    customer: { ...id, description: 'The company holding the IBCs.' },
    usesMin: { ...count, description: 'Filled at least this many times.' },
    usesMax: { ...count, description: 'Filled at most this many times.' },
    ageMin: { ...years, description: 'At least this many whole years since manufacture.' },
    ageMax: { ...years, description: 'At most this many whole years since manufacture.' },
    page,
    pageSize,
    sort,
  },
} as const;

export const holdingsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    customer: { ...id, description: 'One customer (a company id).' },
    sort: { type: 'string', enum: ['ibcToReturn', 'avgReturnTime'], default: 'ibcToReturn', description: 'Descending.' },
    limit: { type: 'integer', minimum: 1, maximum: 100_000 },
  },
} as const;

const paged = {
  200: {
    type: 'object',
    properties: { data: { type: 'array', items: record }, total: { type: 'integer' }, page: { type: 'integer' }, pageSize: { type: 'integer' } },
  },
} as const;

export const lookupAnswer = { 200: record } as const;
export const eventsAnswer = paged;
export const listAnswer = paged;

const days = { type: ['number', 'null'], description: 'Days, 1 decimal; null with nothing to average.' } as const;

export const holdingsAnswer = {
  200: {
    type: 'object',
    properties: {
      data: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            customer: { type: 'string' }, customerName: { type: ['string', 'null'] },
            totalIbcTaken: { type: 'integer' }, totalIbcReturned: { type: 'integer' }, ibcToReturn: { type: 'integer' }, avgReturnTime: days,
          },
        },
      },
    },
  },
} as const;

export const measuresAnswer = {
  200: {
    type: 'object',
    properties: {
      fleetSize: { type: 'integer', description: 'IBCs not disposed.' },
      byStatus: { type: 'object', additionalProperties: { type: 'integer' } },
      cycleTimeDays: { ...days, description: 'Mean days between consecutive fills of one IBC.' },
      dwellAtCustomerDays: { ...days, description: 'Mean days from reception at a customer to return.' },
      turnsPerYear: { type: 'number', description: 'Fills in the last 365 days per IBC of the fleet.' },
      fillCountDistribution: { type: 'array', items: { type: 'object', properties: { uses: { type: 'integer' }, count: { type: 'integer' } } } },
      lossRate: { type: 'number', description: 'Lost IBCs per IBC ever shipped.' },
      lost: { type: 'integer', description: 'IBCs at a customer for more than lossAfterDays.' },
      lossAfterDays: { type: 'integer' },
      dueForInspection: { type: 'integer', description: 'Periodic inspection within alertDaysBefore days.' },
      pastInspection: { type: 'integer' },
      pastEndOfLife: { type: 'integer' },
    },
  },
} as const;

/** The mobile API's request and answer schemas (routes.ts), what the OpenAPI document shows. */

/** A device's own id for itself: what a verdict is kept under with the user and the sequence number. */
const deviceId = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' } as const;
/** An action's sequence number on its device: increasing, never reused. */
const seq = { type: 'integer', minimum: 1, maximum: 9_007_199_254_740_991 } as const;
/** An ISO date and time with its offset, as a device clock gives it. */
const dateTime = { type: 'string', maxLength: 40, pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$' } as const;

/** At most this many actions in one request. */
export const MAX_ACTIONS = 100;

export const termsBody = {
  type: 'object',
  required: ['version'],
  additionalProperties: false,
  properties: { version: { type: 'integer', minimum: 0, maximum: 1_000_000 } },
} as const;

export const actionsBody = {
  type: 'object',
  required: ['deviceId', 'actions'],
  additionalProperties: false,
  properties: {
    deviceId,
    actions: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_ACTIONS,
      items: {
        type: 'object',
        required: ['seq', 'feature', 'workflow', 'recordId', 'kind', 'at', 'offline'],
        additionalProperties: false,
        properties: {
          seq,
          feature: { type: 'string', minLength: 1, maxLength: 60, pattern: '^[a-zA-Z][a-zA-Z0-9]*$', description: 'A feature id of schemas/mobile.json.' },
          workflow: { type: 'string', minLength: 1, maxLength: 60, pattern: '^[A-Za-z][A-Za-z0-9_]*$', description: "The feature's workflow." },
          recordId: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:|-]+$', description: 'The record acted on; for a create, the id the device chose for it.' },
          kind: { type: 'string', enum: ['create', 'transition'] },
          transition: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z][A-Za-z0-9_]*$', description: 'kind transition: one the feature offers.' },
          fields: { type: 'object', additionalProperties: true, description: "The values asked, shaped like the record ({\"location\": {\"lat\": …}}): a create's fields, or the action's." },
          comment: { type: 'string', maxLength: 2000 },
          at: { ...dateTime, description: 'When it was done on the device.' },
          offline: { type: 'boolean', description: 'Done without a connection: the record it applies to is marked offline.' },
        },
      },
    },
  },
} as const;

export const actionsQuery = {
  type: 'object',
  required: ['deviceId'],
  additionalProperties: false,
  properties: { deviceId, after: { type: 'integer', minimum: 0, maximum: 9_007_199_254_740_991, default: 0 } },
} as const;

const verdict = {
  type: 'object',
  required: ['seq', 'status'],
  properties: {
    seq: { type: 'integer' },
    status: { type: 'string', enum: ['applied', 'rejected'] },
    record: { type: 'object', properties: { id: { type: 'string' }, state: { type: ['string', 'null'] } } },
    error: {
      type: 'object',
      properties: {
        code: { type: 'string' }, message: { type: 'string' }, hint: { type: 'string' },
        details: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } } },
      },
    },
  },
} as const;

export const verdictsAnswer = {
  200: {
    type: 'object',
    properties: { results: { type: 'array', items: verdict }, more: { type: 'boolean', description: 'GET: more verdicts follow the last one (ask again after its seq).' } },
  },
} as const;

export const appAnswer = {
  200: {
    type: 'object',
    properties: {
      appVersion: { type: 'string' },
      termsVersion: { type: 'integer' },
      termsAccepted: { type: ['integer', 'null'] },
      lang: { type: 'string' },
      map: {
        type: 'object',
        description: "The deployment's map tiles (settings.map): a URL template with {z}/{x}/{y}, empty for none, and its attribution",
        properties: { tileUrl: { type: 'string' }, attribution: { type: 'string' } },
        required: ['tileUrl', 'attribution'],
      },
      features: { type: 'array', items: { type: 'object', additionalProperties: true } },
    },
  },
} as const;

export const noContent = { 204: { type: 'null', description: 'Recorded.' } } as const;

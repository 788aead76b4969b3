import { idParam, operationListQuery } from '../workflows/schemas';

const { page, pageSize } = operationListQuery.properties;
const id = idParam.properties.id;
const name = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_]+$', description: 'A declarable workflow (delivery, product_import…).' } as const;
const record = { type: 'object', additionalProperties: true } as const;
const count = { type: 'integer', minimum: 0 } as const;
const sync = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['', 'synced', 'failed'] }, transactionId: { type: 'string' }, reason: { type: 'string' },
    attempts: { type: 'integer' }, lastAttemptAt: { type: 'string' }, syncedAt: { type: 'string' }, deadline: { type: 'string' },
  },
} as const;

/** A record of the route's own workflow. */
export const idParams = { type: 'object', required: ['id'], additionalProperties: false, properties: { id } } as const;
export const recordParams = { type: 'object', required: ['workflow', 'id'], additionalProperties: false, properties: { workflow: name, id } } as const;
export const remitoParams = {
  type: 'object', required: ['number'], additionalProperties: false,
  properties: { number: { type: 'string', minLength: 1, maxLength: 100, description: 'The delivery note (remito) number, exactly.' } },
} as const;
export const attemptsQuery = { type: 'object', additionalProperties: false, properties: { page, pageSize } } as const;

export const resyncAnswer = { 200: { type: 'object', properties: { sync } } } as const;
export const statusAnswer = {
  200: {
    type: 'object',
    properties: {
      pending: { ...count, description: 'Jobs waiting to be sent (the outbox depth, with `leased`).' },
      leased: { ...count, description: 'Jobs being sent now.' },
      failed: { ...count, description: 'Refused by the authority: waiting for a re-sync.' },
      synced: { ...count, description: 'Accepted by the authority.' },
      overdue: { ...count, description: 'Not accepted and past their legal deadline (the goal: zero).' },
      dueSoon: { ...count, description: 'Not accepted, in the last part of their window.' },
    },
  },
} as const;
export const attemptsAnswer = {
  200: { type: 'object', properties: { data: { type: 'array', items: record }, total: count, page: count, pageSize: count } },
} as const;
/** One record found by its remito number: its state, sync state and outbox jobs. */
const remitoRecord = {
  type: 'object',
  properties: {
    workflow: { type: 'string' }, id: { type: 'string' }, remito: { type: 'string' }, state: { type: ['string', 'null'] },
    sync: { anyOf: [sync, { type: 'null' }] }, jobs: { type: 'array', items: record },
  },
} as const;
export const remitoAnswer = { 200: { type: 'object', properties: { data: { type: 'array', items: remitoRecord } } } } as const;

import { INBOUND_STATUSES, LIMITS } from './service';

const text = (max: number, description: string) => ({ type: 'string', minLength: 1, maxLength: max, description }) as const;

export const inboundBody = {
  type: 'object',
  additionalProperties: false,
  required: ['source', 'kind'],
  properties: {
    source: text(LIMITS.source, 'Who sent it: authority, or the integration\'s name.'),
    kind: text(LIMITS.kind, 'What it is: confirmation, rejection, alert…'),
    reference: text(LIMITS.reference, 'What it is about: a transaction id, a remito number.'),
    summary: { type: 'string', maxLength: LIMITS.summary, description: 'What it says; made from payload when left out.' },
    payload: { description: 'The message as received; only a summary of it is kept.' },
    status: { type: 'string', enum: [...INBOUND_STATUSES], default: 'received' },
    error: { type: 'string', maxLength: LIMITS.error, description: 'Why it could not be processed (status failed).' },
    at: { type: 'string', format: 'date-time', description: 'When it arrived; now when left out.' },
  },
} as const;

export const inboundAnswer = {
  201: {
    type: 'object',
    required: ['id', 'at', 'source', 'kind', 'status'],
    properties: {
      id: { type: 'string' }, at: { type: 'string' }, source: { type: 'string' }, kind: { type: 'string' },
      reference: { type: 'string' }, summary: { type: 'string' }, status: { type: 'string' }, error: { type: 'string' },
    },
  },
} as const;

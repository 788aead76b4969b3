const problem = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: ['altered', 'removed', 'reordered', 'gap', 'unchained', 'anchorMismatch'] },
    message: { type: 'string' },
    seq: { type: 'integer' },
    missing: { type: 'integer', description: 'For a gap: the first seq missing.' },
    collection: { type: 'string' },
    eventId: { type: 'string' },
    anchor: { type: 'object', properties: { id: { type: 'string' }, fromSeq: { type: 'integer' }, toSeq: { type: 'integer' }, txHash: { type: 'string' } } },
  },
} as const;

const account = {
  type: 'object',
  properties: {
    account: { type: 'string' }, kind: { type: 'string', enum: ['ibc', 'trueBulk'] }, environment: { type: 'string', enum: ['production', 'test'] },
    active: { type: 'boolean', description: 'New events are chained here (the deployment\'s environment).' },
    entries: { type: 'integer' }, anchoredThrough: { type: 'integer', description: 'The last entry an anchoring covers (0: none).' },
    ok: { type: 'boolean' }, problem,
  },
} as const;

export const verifyAnswer = {
  200: {
    type: 'object',
    properties: { ok: { type: 'boolean' }, checkedAt: { type: 'string' }, durationMs: { type: 'number' }, accounts: { type: 'array', items: account } },
  },
} as const;

const anchor = {
  type: 'object',
  properties: {
    id: { type: 'string' }, account: { type: 'string' }, kind: { type: 'string' }, environment: { type: 'string' }, network: { type: 'string' },
    fromSeq: { type: 'integer' }, toSeq: { type: 'integer' }, entries: { type: 'integer' }, root: { type: 'string' },
    status: { type: 'string', enum: ['anchored', 'failed'] }, trigger: { type: 'string', enum: ['schedule', 'demand'] },
    txHash: { type: 'string' }, blockNumber: { type: 'integer' }, error: { type: 'string' }, at: { type: 'string' }, durationMs: { type: 'number' },
  },
} as const;

export const anchorAnswer = { 200: { type: 'object', properties: { data: { type: 'array', items: anchor } } } } as const;

/** The trace routes' JSON schemas: what they take, and what they answer (for /api/openapi.json). */
import { MAX_DEPTH } from './service';
import { ROW_COLUMNS } from './rows';
import { EVENT_SORT_COLUMNS } from './listing';

const ident = { type: 'string', minLength: 1, maxLength: 200 } as const;
const id = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:|-]+$' } as const;
const isoDate = { type: 'string', maxLength: 40, pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})?)?$' } as const;

/** What a trace starts from: one of lot (with its material when several share the number), ibc or shipment. */
const start = {
  lot: { ...ident, description: 'A lot (batch) number.', examples: ['L-001'] },
  material: { ...id, description: 'The lot\'s material id, when the number names lots of several materials.' },
  ibc: { ...ident, description: 'An IBC\'s serial number (or id).' },
  shipment: { ...ident, description: 'A shipment: a delivery, IBC delivery or bulk delivery record id, or its remito (shipment) number.' },
  direction: { type: 'string', enum: ['backward', 'forward', 'both'], default: 'both', description: 'backward: what it came from; forward: where it went; both.' },
  maxDepth: { type: 'integer', minimum: 1, maximum: MAX_DEPTH, description: 'Hop levels to walk at most (default 64); the answer says when the walk stopped there.' },
} as const;

export const traceQuery = { type: 'object', additionalProperties: false, properties: start } as const;

const rowSort = {
  type: 'string', maxLength: 40, pattern: `^-?(${ROW_COLUMNS.join('|')})$`,
  description: `A column (${ROW_COLUMNS.join(', ')}); a leading - sorts descending. Without a trace: ${EVENT_SORT_COLUMNS.join(', ')}.`,
} as const;

export const csvQuery = { type: 'object', additionalProperties: false, properties: { ...start, sort: rowSort } } as const;

export const eventsQuery = {
  type: 'object', additionalProperties: false,
  properties: {
    ...start,
    page: { type: 'integer', minimum: 1, maximum: 10_000, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
    sort: rowSort,
    from: { ...isoDate, description: 'Without a trace: events on or after this time.' },
    to: { ...isoDate, description: 'Without a trace: events on or before this time (a date alone: the whole day).' },
  },
} as const;

export const searchQuery = {
  type: 'object', additionalProperties: false, required: ['q'],
  properties: { q: { type: 'string', maxLength: 200, description: 'Part of a lot number, IBC serial or shipment (remito) number; from 2 characters.' } },
} as const;

export const historyQuery = {
  type: 'object', additionalProperties: false, required: ['lot'],
  properties: { lot: start.lot, material: start.material },
} as const;

const str = { type: 'string' } as const;
const place = { type: 'object', required: ['lat', 'lng'], properties: { lat: { type: 'number' }, lng: { type: 'number' } } } as const;
const named = { type: 'array', items: { type: 'object', required: ['id', 'name'], properties: { id: str, name: str, role: str } } } as const;
const operationRef = { type: 'object', required: ['workflow', 'id', 'transition'], properties: { workflow: str, id: str, transition: str } } as const;

const node = {
  type: 'object', required: ['id', 'kind', 'label'],
  properties: {
    id: str, kind: { type: 'string', enum: ['lot', 'operation', 'deposit', 'ibc'] }, label: str, start: { type: 'boolean' },
    material: str, materialName: str, gtin: str, lot: str, elaborationDate: str, expirationDate: str,
    workflow: str, workflowLabel: str, record: str, category: { type: 'string', enum: ['import', 'transformation', 'shipment', 'scrap', 'consumption', 'container', 'operation'] },
    document: str, date: str, state: str, companies: named, countries: named, company: str, companyName: str, serial: str, deposit: str, location: place,
    beyond: { type: 'integer', description: 'Links from this node that continue beyond your access.' },
  },
} as const;

const edge = {
  type: 'object', required: ['id', 'from', 'to', 'kind', 'material', 'lot', 'quantity', 'unit', 'deposit', 'at', 'operation'],
  properties: {
    id: str, from: str, to: str, kind: { type: 'string', enum: ['consumed', 'produced', 'arrived', 'filled', 'carried'] }, material: str, lot: str,
    quantity: { type: 'number' }, unit: str, deposit: str, at: str, operation: operationRef,
  },
} as const;

export const traceAnswer = {
  200: {
    type: 'object', required: ['start', 'direction', 'nodes', 'edges', 'places', 'flows', 'summary', 'boundary', 'limits'],
    properties: {
      start: { type: 'object', required: ['kind', 'nodes', 'identifier'], properties: { kind: { type: 'string', enum: ['lot', 'ibc', 'shipment'] }, nodes: { type: 'array', items: str }, identifier: str } },
      direction: { type: 'string', enum: ['backward', 'forward', 'both'] },
      nodes: { type: 'array', items: node },
      edges: { type: 'array', items: edge },
      places: {
        type: 'array',
        items: { type: 'object', required: ['id', 'kind', 'label', 'location', 'nodes'], properties: { id: str, kind: { type: 'string', enum: ['deposit', 'company'] }, label: str, location: place, nodes: { type: 'array', items: str } } },
      },
      flows: {
        type: 'array',
        items: { type: 'object', required: ['from', 'to', 'material', 'lot', 'quantity', 'unit', 'operation'], properties: { from: str, to: str, material: str, lot: str, quantity: { type: 'number' }, unit: str, operation: str } },
      },
      summary: {
        type: 'object',
        properties: {
          lots: { type: 'integer' }, operations: { type: 'integer' }, shipments: { type: 'integer' }, ibcs: { type: 'integer' }, deposits: { type: 'integer' }, events: { type: 'integer' },
          customers: named, suppliers: named, countries: named,
        },
      },
      boundary: {
        type: 'object', required: ['links', 'nodes', 'warehouse'],
        description: 'Where the walk stopped at the selected warehouse group\'s edge: how many links continue beyond it, from how many nodes.',
        properties: { links: { type: 'integer' }, nodes: { type: 'integer' }, warehouse: { type: ['string', 'null'] } },
      },
      limits: {
        type: 'object', required: ['maxDepth', 'depth', 'truncated'],
        properties: { maxDepth: { type: 'integer' }, depth: { type: 'integer' }, truncated: { type: ['string', 'null'], enum: ['depth', 'size', null] } },
      },
    },
  },
} as const;

const row = {
  type: 'object',
  properties: {
    event: str, type: str, time: str, date: str, bizStep: str, disposition: str, role: str, material: str, gtin: str, lot: str, ibc: str,
    quantity: { type: ['number', 'null'] }, unit: str, from: str, to: str, document: str, operation: str, transition: str, workflow: str, record: str,
  },
} as const;

export const eventsAnswer = {
  200: {
    type: 'object', required: ['data', 'total', 'page', 'pageSize'],
    properties: {
      data: { type: 'array', items: row }, total: { type: 'integer', description: 'Rows of the trace; without a trace, events.' },
      page: { type: 'integer' }, pageSize: { type: 'integer' }, boundary: traceAnswer[200].properties.boundary,
    },
  },
} as const;

export const searchAnswer = {
  200: {
    type: 'object', required: ['data'],
    properties: {
      data: {
        type: 'array',
        items: {
          type: 'object', required: ['kind', 'label', 'detail'],
          properties: { kind: { type: 'string', enum: ['lot', 'ibc', 'shipment'] }, label: str, detail: str, lot: str, material: str, ibc: str, shipment: str },
        },
      },
    },
  },
} as const;

export const historyAnswer = {
  200: {
    type: 'object', required: ['lot', 'steps', 'beyond', 'warehouse'],
    properties: {
      lot: { type: 'object', properties: { material: str, materialName: str, gtin: str, lot: str, elaborationDate: str, expirationDate: str } },
      steps: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            at: str, date: str, workflow: str, operation: str, record: str, document: str, transition: str, deposit: str, depositName: str,
            quantity: { type: 'number' }, unit: str, balance: { type: 'number' },
          },
        },
      },
      beyond: { type: 'integer', description: 'Deposits beyond your access that hold or held the lot.' },
      warehouse: { type: ['string', 'null'] },
    },
  },
} as const;

export const epcisAnswer = {
  200: {
    type: 'object', required: ['@context', 'type', 'schemaVersion', 'creationDate', 'epcisBody'],
    description: 'An EPCISDocument (GS1 EPCIS 2.0 JSON-LD) of the events behind the trace.',
    properties: {
      '@context': { type: 'array', items: str }, type: { type: 'string', enum: ['EPCISDocument'] }, schemaVersion: str, creationDate: str,
      epcisBody: { type: 'object', properties: { eventList: { type: 'array', items: { type: 'object', additionalProperties: true } } } },
    },
  },
} as const;

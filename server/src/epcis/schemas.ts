/**
 * The EPCIS routes' JSON schemas, for the OpenAPI document. The query string is checked by
 * params.ts (unknown names and wrong values are the standard's QueryParameterException) and a
 * capture document by schema.ts against GS1's own schema, so these validate little themselves.
 */
import type { EpcisLimits } from './limits';
import { MATCHES } from './params';

const list = (description: string) => ({ type: 'string', maxLength: 20_000, description: `${description} Several values are separated by |.` }) as const;
const time = (description: string) => ({ type: 'string', maxLength: 100, description: `${description} A date-time with its offset (2025-03-01T10:00:00Z).` }) as const;

export function eventsQuery(limits: EpcisLimits) {
  return {
    type: 'object',
    properties: {
      eventType: list('Only events of these types (ObjectEvent, AggregationEvent, TransactionEvent, TransformationEvent, AssociationEvent).'),
      GE_eventTime: time('Only events whose eventTime is at or after this time.'),
      LT_eventTime: time('Only events whose eventTime is before this time.'),
      GE_recordTime: time('Only events recorded here at or after this time.'),
      LT_recordTime: time('Only events recorded here before this time.'),
      EQ_action: list('Only events with one of these actions (ADD, OBSERVE, DELETE).'),
      EQ_bizStep: list('Only events with one of these business steps (a CBV term, bare or as URI, or another vocabulary\'s URI).'),
      EQ_disposition: list('Only events with one of these dispositions.'),
      EQ_readPoint: list('Only events read at one of these locations (URIs).'),
      EQ_bizLocation: list('Only events at one of these business locations (URIs).'),
      EQ_eventID: list('Only the events with these eventIDs.'),
      ...Object.fromEntries(Object.keys(MATCHES).map((m) => [m, list(`Only events naming one of these identifiers (${m.includes('Class') ? 'EPC classes: lots' : 'EPCs'}), as EPC URI or GS1 Digital Link alike.`)])),
      EXISTS_errorDeclaration: { type: 'string', maxLength: 5, description: 'true: only events declared in error (false or left out: any).' },
      perPage: { type: 'string', maxLength: 12, description: `Events in a page, 1 to ${limits.maxPerPage} (30 when left out); more is refused.` },
      nextPageToken: { type: 'string', maxLength: 800, description: 'The next page of the same query: the token the Link header (rel="next") of the previous page carries.' },
    },
  } as const;
}

const any = {};

export const queryDocumentAnswer = {
  200: {
    description: 'An EPCISQueryDocument (GS1\'s schema) of one page; a Link header with rel="next" when more follow.',
    type: 'object',
    additionalProperties: true,
    properties: { '@context': any, type: { type: 'string' }, schemaVersion: { type: 'string' }, creationDate: { type: 'string' }, epcisBody: any },
  },
} as const;

const problem = {
  type: 'object',
  additionalProperties: true,
  properties: {
    type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' },
    pointer: { type: 'string', description: 'JSON pointer of what it is about in the captured document.' }, code: { type: 'string' },
  },
} as const;

export const captureJob = {
  type: 'object',
  required: ['captureID', 'createdAt', 'running', 'success', 'captureErrorBehaviour', 'errors', 'counts'],
  properties: {
    captureID: { type: 'string' },
    createdAt: { type: 'string' },
    finishedAt: { type: 'string' },
    running: { type: 'boolean' },
    success: { type: 'boolean', description: 'false when at least one event could not be captured (see errors).' },
    captureErrorBehaviour: { type: 'string', enum: ['rollback', 'proceed'] },
    errors: { type: 'array', items: problem },
    counts: {
      type: 'object',
      properties: {
        events: { type: 'integer' }, stored: { type: 'integer' }, duplicates: { type: 'integer', description: 'Events already stored (same event hash): nothing new.' },
        declarations: { type: 'integer', description: 'Error declarations that marked a stored event.' }, rejected: { type: 'integer' },
      },
    },
  },
} as const;

export const captureAnswer = { 202: { description: 'Captured; the Location header names the capture job.', ...captureJob } } as const;
export const jobAnswer = { 200: captureJob } as const;
export const jobsAnswer = { 200: { type: 'object', properties: { data: { type: 'array', items: captureJob } } } } as const;
export const discoveryAnswer = { 204: { description: 'The capabilities, in the GS1- headers.', type: 'null' } } as const;
export const captureParam = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 60, pattern: '^[0-9A-Za-z]+$' } } } as const;

export const captureHeaders = {
  type: 'object',
  properties: {
    'gs1-capture-error-behaviour': { type: 'string', enum: ['rollback', 'proceed'], description: 'rollback (default): all or nothing; proceed: the valid events are stored, the others listed in the job.' },
  },
} as const;

/** A document the capture takes, so a fuzzer given the OpenAPI document reaches past the schema check. */
const SAMPLE = {
  '@context': ['https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld'], type: 'EPCISDocument', schemaVersion: '2.0', creationDate: '2025-03-01T10:00:00Z',
  epcisBody: {
    eventList: [{
      type: 'ObjectEvent', eventTime: '2025-03-01T10:00:00.000-03:00', eventTimeZoneOffset: '-03:00', action: 'OBSERVE', bizStep: 'shipping', disposition: 'in_transit',
      epcList: ['urn:epc:id:sgtin:4012345.011111.1001'], quantityList: [{ epcClass: 'urn:epc:class:lgtin:4012345.011111.L1', quantity: 200, uom: 'KGM' }],
      readPoint: { id: 'urn:epc:id:sgln:4012345.00001.0' }, bizTransactionList: [{ type: 'po', bizTransaction: 'urn:epcglobal:cbv:bt:4012345000009:PO-1' }],
    }],
  },
};

/** The capture body as documented: an EPCISDocument (or EPCISQueryDocument), checked against GS1's schema by the handler. */
export const captureBody = {
  type: 'object',
  examples: [SAMPLE],
  required: ['@context', 'type', 'epcisBody'],
  description: 'An EPCISDocument (or an EPCISQueryDocument) as GS1\'s JSON schema defines it.',
  properties: {
    '@context': any, type: { type: 'string', enum: ['EPCISDocument', 'EPCISQueryDocument'] }, schemaVersion: { type: 'string' },
    creationDate: { type: 'string', format: 'date-time' }, epcisBody: { type: 'object' },
  },
} as const;

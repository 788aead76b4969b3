/**
 * GS1's JSON Schema of EPCIS 2.0 documents (gs1/EPCIS-JSON-Schema.json, draft-07, the standard's
 * own file kept as published), compiled once per process on first use (about half a second).
 * Capture checks a document's envelope and each event on its own, so an error names the event
 * by its JSON pointer in the document (`/epcisBody/eventList/3/bizStep`).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import schema from './gs1/EPCIS-JSON-Schema.json';

export interface SchemaProblem {
  /** JSON pointer in the document. */
  pointer: string;
  message: string;
}

interface Validators {
  document: ValidateFunction;
  event: ValidateFunction;
}

let compiled: Validators | undefined;

function validators(): Validators {
  if (compiled) return compiled;
  const ajv = new Ajv({ strict: false, allErrors: false });
  addFormats(ajv);
  const document = ajv.compile(schema);
  const event = ajv.getSchema(`${schema.$id}#/definitions/EPCIS-Document-Event`)!;
  compiled = { document, event };
  return compiled;
}

/** Combinators only say that a branch failed; the branch's own error says what. */
const SUMMARIES = new Set(['if', 'anyOf', 'allOf', 'oneOf', 'not']);

function problemsOf(errors: ErrorObject[] | null | undefined, base: string): SchemaProblem[] {
  const all = errors ?? [];
  const specific = all.filter((e) => !SUMMARIES.has(e.keyword));
  const out = new Map<string, SchemaProblem>();
  for (const e of specific.length ? specific : all) {
    const p = e.params as Record<string, unknown>;
    const child = typeof p.missingProperty === 'string' ? p.missingProperty : typeof p.additionalProperty === 'string' ? p.additionalProperty : typeof p.propertyName === 'string' ? p.propertyName : undefined;
    const pointer = `${base}${e.instancePath}${child !== undefined ? `/${child.replace(/~/g, '~0').replace(/\//g, '~1')}` : ''}`;
    const allowed = Array.isArray(p.allowedValues) ? ` (${p.allowedValues.join(', ')})` : '';
    const message = `${e.message ?? 'is not valid'}${allowed}`;
    out.set(`${pointer} ${message}`, { pointer, message });
  }
  return [...out.values()];
}

/** The problems of one event of a document (`base`: its pointer); none when it is valid. */
export function eventProblems(event: unknown, base: string): SchemaProblem[] {
  const v = validators().event;
  return v(event) ? [] : problemsOf(v.errors, base);
}

/** The problems of a document without its events (checked one by one with eventProblems). */
export function envelopeProblems(doc: Record<string, unknown>, eventsAt: readonly string[]): SchemaProblem[] {
  const v = validators().document;
  // The same document with an empty event list: shallow copies down the path to the list.
  const copy = { ...doc };
  let holder: Record<string, unknown> = copy;
  for (const key of eventsAt.slice(0, -1)) {
    const inner = holder[key];
    if (!inner || typeof inner !== 'object' || Array.isArray(inner)) break;
    holder[key] = { ...(inner as Record<string, unknown>) };
    holder = holder[key] as Record<string, unknown>;
  }
  if (Array.isArray(holder[eventsAt[eventsAt.length - 1]])) holder[eventsAt[eventsAt.length - 1]] = [];
  return v(copy) ? [] : problemsOf(v.errors, '');
}

/** Whether a whole document (an answer of the query route) is valid EPCIS. */
export function isValidDocument(doc: unknown): { valid: boolean; problems: SchemaProblem[] } {
  const v = validators().document;
  return v(doc) ? { valid: true, problems: [] } : { valid: false, problems: problemsOf(v.errors, '') };
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** GS1's example EPCIS documents (shared/epcis/examples beside the repository), by file name. */
export const EXAMPLES_DIR = join(process.cwd(), '..', 'shared', 'epcis', 'examples');

export function gs1Examples(): { name: string; doc: Record<string, any> }[] {
  return readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.jsonld')).sort().map((name) => ({ name, doc: JSON.parse(readFileSync(join(EXAMPLES_DIR, name), 'utf8')) }));
}

/** The events of a query document's page. */
export const eventsOf = (doc: any): Record<string, any>[] => doc.epcisBody.queryResults.resultsBody.eventList;

/** An event as captured, without what the repository adds to it (its recordTime). */
export function withoutRecordTime(ev: Record<string, unknown>): Record<string, unknown> {
  const { recordTime: _r, ...rest } = ev;
  return rest;
}

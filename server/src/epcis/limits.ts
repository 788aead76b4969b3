/**
 * What one EPCIS capture may hold and one query page may list, from the environment (documented
 * in docs/epcis.md), advertised on the capture route (`GS1-EPCIS-Capture-Limit`,
 * `GS1-EPCIS-Capture-File-Size-Limit`) and in the query route's description.
 */
import { positive } from '../imports/limits';

export interface EpcisLimits {
  /** EPCIS_CAPTURE_LIMIT: events in one capture document. */
  captureEvents: number;
  /** EPCIS_CAPTURE_FILE_SIZE_LIMIT_KB: the capture document's bytes, as sent. */
  captureBytes: number;
  /** EPCIS_MAX_PER_PAGE: the most events a query page lists (perPage above it is refused). */
  maxPerPage: number;
}

export const DEFAULT_EPCIS_LIMITS: EpcisLimits = { captureEvents: 500, captureBytes: 1024 * 1024, maxPerPage: 1000 };

export function readEpcisLimits(env: NodeJS.ProcessEnv): EpcisLimits {
  const d = DEFAULT_EPCIS_LIMITS;
  return {
    captureEvents: positive(env, 'EPCIS_CAPTURE_LIMIT', d.captureEvents),
    captureBytes: positive(env, 'EPCIS_CAPTURE_FILE_SIZE_LIMIT_KB', d.captureBytes / 1024) * 1024,
    maxPerPage: positive(env, 'EPCIS_MAX_PER_PAGE', d.maxPerPage),
  };
}

import { setPath } from './values';
import { compiledQuery } from './query';
import type { WorkflowDefinition } from './types';

type Rec = Record<string, unknown>;

/**
 * The record with the workflow's derived fields set: for each derivation, the value of the first
 * case whose query matches the record, else its `otherwise`. Derivations run in order, so a
 * later one may read an earlier one's field.
 */
export function deriveFields(wf: Pick<WorkflowDefinition, 'derive'>, record: Rec): Rec {
  let out = record;
  for (const d of wf.derive ?? []) {
    const hit = d.cases.find((c) => compiledQuery(c.when).test(out));
    out = setPath(out, d.field, hit ? hit.value : d.otherwise);
  }
  return out;
}

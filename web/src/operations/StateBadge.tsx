import type { WorkflowDef } from '../../../engine/src/index';
import { useMasterData } from '../masterdata/useMasterData';
import { stateBadge } from './model';

/** A workflow state as a coloured badge with its label in the user's language. */
export function StateBadge({ workflow, state }: { workflow: WorkflowDef; state: unknown }) {
  const { lang } = useMasterData();
  const b = stateBadge(workflow, state, lang);
  if (!b.id) return null;
  return <span className="tm-op-badge" style={{ background: b.color }} data-testid="state-badge" data-state={b.id}>{b.label}</span>;
}

import type { ReportColumnDef } from '../../../engine/src/index';
import { getPath } from '../../../engine/src/validate/values';
import { useMasterData } from '../masterdata/useMasterData';
import { StateBadge } from '../operations/StateBadge';
import { useShell } from '../shell/shellContext';
import { useReports } from './context';
import { cellText, type CellColumn } from '../../../engine/src/index';
import { actionGoTo } from './links';

/**
 * A report cell: the engine's cell text (what the CSV holds too); a status as its workflow
 * state's coloured badge; a conditional action as a link that asks the shell to open the
 * operation or IBC it names (goTo) when the row meets its condition and the user may open it.
 */
export function ReportCell({ column, def, row }: { column: CellColumn; def: ReportColumnDef; row: Record<string, unknown> }) {
  const { registry } = useMasterData();
  const shell = useShell();
  const { goTo } = useReports();
  const text = cellText(column, row);
  if (def.type === 'status') {
    const wf = registry.workflows[def.workflow ?? ''];
    const v = getPath(row, def.field);
    if (wf && typeof v === 'string' && v) return <StateBadge workflow={wf} state={v} />;
  }
  if (def.type === 'conditional_action' && text) {
    const target = actionGoTo(shell, def.action, row);
    if (target) {
      return (
        <a href="#" className="tm-op-link" data-testid="report-action" data-type={target.type}
          onClick={(e) => { e.preventDefault(); e.stopPropagation(); goTo(target); }}>{text}</a>
      );
    }
  }
  return <span className="tm-cell" title={text || undefined}>{text}</span>;
}

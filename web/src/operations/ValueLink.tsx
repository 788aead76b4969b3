import type { FieldDef } from '../../../engine/src/index';
import { useShell } from '../shell/shellContext';
import { useOperation } from './context';
import { goToFor } from './links';

/** A record's value as text, or as a link that asks the shell to open it in its own feature (goTo). */
export function ValueLink({ field, value, text, isBatch }: { field: FieldDef | undefined; value: unknown; text: string; isBatch?: boolean }) {
  const shell = useShell();
  const { goTo } = useOperation();
  const target = goToFor(shell, field, value, isBatch);
  if (!target || !text) return <>{text}</>;
  return (
    <a href="#" className="tm-op-link" data-testid="goto-link" data-type={target.type}
      onClick={(e) => { e.preventDefault(); goTo(target); }}>{text}</a>
  );
}

import { useTranslation } from 'react-i18next';
import type { TraceAnswer } from './model';

/** Where the trace stops at the selected group's edge: how many links go on beyond it, never what is there. */
export function BoundaryNotice({ boundary }: { boundary: TraceAnswer['boundary'] | undefined }) {
  const { t } = useTranslation();
  if (!boundary || boundary.links === 0) return null;
  return (
    <div className="p-message p-message-warn tm-trace__notice" role="status" data-testid="trace-boundary" data-links={boundary.links}>
      <i className="pi pi-lock" aria-hidden="true" /> {t('trace.boundary', { count: boundary.links, warehouse: boundary.warehouse ?? '' })}
    </div>
  );
}

import { useCallback, useEffect, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { ProgressBar } from 'primereact/progressbar';
import type { ReportDef } from '../../../engine/src/index';
import { errorText } from '../api/errorText';
import { ApiRequestError } from '../api/errors';
import { useReports } from './context';
import { exportStep, IDLE, nextPollDelay, progressPercent } from './exportJob';
import type { FilterParams } from './filters';

/** Starts an export and follows it until it finishes (exportJob.ts's state machine). */
function useExport() {
  const { t } = useTranslation();
  const { reports } = useReports();
  const [state, dispatch] = useReducer(exportStep, IDLE);
  const delay = nextPollDelay(state);
  const jobId = state.phase === 'polling' ? state.job.id : null;
  const attempt = state.phase === 'polling' ? state.attempt : 0;

  useEffect(() => {
    if (jobId === null || delay === null) return;
    let live = true;
    const timer = setTimeout(() => {
      reports.exportJob(jobId).then(
        (job) => live && dispatch({ type: 'polled', job }),
        (e: unknown) => {
          const status = e instanceof ApiRequestError ? e.status : 0;
          if (live) dispatch({ type: 'pollFailed', error: errorText(e, t), retry: status === 0 || status >= 500 });
        },
      );
    }, delay);
    return () => { live = false; clearTimeout(timer); };
  }, [reports, jobId, attempt, delay, t]);

  const start = useCallback((key: string, filters: FilterParams, sort?: string) => {
    dispatch({ type: 'start' });
    reports.startExport(key, filters, sort).then(
      (job) => dispatch({ type: 'accepted', job: { ...job, status: job.status ?? 'queued' } }),
      (e: unknown) => dispatch({ type: 'startFailed', error: errorText(e, t) }),
    );
  }, [reports, t]);
  return { state, start, reset: () => dispatch({ type: 'reset' }) };
}

/**
 * Export CSV: the whole report with the applied filters and sort, written by the server in the
 * background; a progress bar while it runs, then a link that downloads the file, or the reason it failed.
 */
export function ExportButton({ def, filters, sort }: { def: ReportDef; filters: FilterParams; sort?: string }) {
  const { t } = useTranslation();
  const { reports } = useReports();
  const { state, start, reset } = useExport();
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const busy = state.phase === 'starting' || state.phase === 'polling';
  return (
    <div className="tm-rep-export" data-testid="report-export" data-phase={state.phase}>
      <Button label={t('reports.export')} icon="pi pi-download" outlined loading={busy} disabled={busy} data-testid="report-export-start"
        onClick={() => { setDownloadError(null); start(def.key, filters, sort); }} />
      {state.phase === 'polling' && (
        <div className="tm-rep-export__progress">
          <ProgressBar value={progressPercent(state.job)} aria-label={t('reports.exporting')} data-testid="report-export-progress" />
          <small>
            {state.job.status === 'queued' ? t('reports.exportQueued') : t('reports.exportRows', { rows: state.job.rows ?? 0, total: state.job.total ?? '…' })}
            {state.retryError && <> · {t('reports.exportRetrying')}</>}
          </small>
        </div>
      )}
      {state.phase === 'done' && (
        <span className="tm-rep-export__done">
          <a href={reports.downloadPath(state.job.id)} data-testid="report-export-download"
            onClick={(e) => { e.preventDefault(); reports.download(state.job.id).catch((err: unknown) => setDownloadError(errorText(err, t))); }}>
            <i className="pi pi-file" aria-hidden="true" /> {t('reports.exportDownload', { rows: state.job.rows ?? 0 })}
          </a>
          <Button icon="pi pi-times" text rounded aria-label={t('common.close')} onClick={reset} />
        </span>
      )}
      {state.phase === 'failed' && (
        <small className="p-error" role="alert" data-testid="report-export-error">
          {t('reports.exportFailed', { reason: state.error || t('reports.exportFailedUnknown') })}
        </small>
      )}
      {downloadError && <small className="p-error" role="alert">{downloadError}</small>}
    </div>
  );
}

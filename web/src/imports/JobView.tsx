import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import { useTranslation } from 'react-i18next';
import type { ImportsApi } from './api';
import { Pager } from './Pager';
import { cellErrors, isFinished, type ImportJob } from './logic';

/** One import: progress while it runs, then counts, file-level messages and every rejected cell. */
export function JobView({ job, imports, page, onPage }: { job: ImportJob; imports: ImportsApi; page: number; onPage: (p: number) => void }) {
  const { t } = useTranslation();
  const finished = isFinished(job.status);
  const rows = cellErrors(job);
  const pages = Math.max(1, Math.ceil((job.errors?.total ?? 0) / (job.errors?.pageSize ?? 50)));
  return (
    <section className="tm-import-job" data-testid="import-job" data-status={job.status}>
      <h3>
        {t(job.dryRun ? 'import.job.dryRun' : 'import.job.import', { file: job.fileName, entity: job.entity })}
        {' — '}
        <span data-testid="import-status">{t(`import.status.${job.status}`)}</span>
      </h3>
      {!finished && (
        <div data-testid="import-progress">
          <ProgressBar value={Math.round(job.progress.percent)} />
          <p>{t('import.progress', { done: job.progress.rowsDone, total: job.progress.rowsTotal })}</p>
        </div>
      )}
      {finished && (
        <dl className="tm-import-counts" data-testid="import-counts">
          {(['insert', 'update', 'unchanged', 'reject'] as const).map((k) => (
            <div key={k}>
              <dt>{t(`import.count.${k}`)}</dt>
              <dd data-testid={`import-count-${k}`}>{job.counts[k]}</dd>
            </div>
          ))}
        </dl>
      )}
      {job.error && <Message severity="error" text={job.error.message} data-testid="import-job-error" />}
      {job.messages.map((m) => <Message key={m.code} severity={m.severity === 'warn' ? 'warn' : 'info'} text={m.message} />)}
      {finished && rows.length > 0 && (
        <>
          <table className="tm-import-errors" data-testid="import-errors">
            <thead>
              <tr><th>{t('import.col.row')}</th><th>{t('import.col.column')}</th><th>{t('import.col.message')}</th></tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={`${r.row}-${i}`} data-testid="import-error-row" data-row={r.row} data-column={r.column}>
                  <td>{r.row}</td><td>{r.column}</td><td>{r.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} pages={pages} onPage={onPage} />
        </>
      )}
      {finished && job.errorFile && job.counts.reject > 0 && (
        <Button label={t('import.errorFile')} icon="pi pi-download" outlined data-testid="import-error-file"
          onClick={() => void imports.download(job.errorFile!, `${job.entity}-errors.csv`)} />
      )}
    </section>
  );
}

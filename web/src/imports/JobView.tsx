import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import { Tag } from 'primereact/tag';
import { useTranslation } from 'react-i18next';
import { formOf, localize } from '../../../engine/src/index';
import { useShell } from '../shell/shellContext';
import type { ImportsApi } from './api';
import { JobColumns } from './JobColumns';
import { JobErrors } from './JobErrors';
import { COUNT_KEYS, durationSeconds, formatNumber, isFinished, localTime, statusSeverity, type ImportJob } from './logic';
import { messageText } from './messages';

export interface JobViewProps {
  job: ImportJob;
  imports: ImportsApi;
  /** Page of the rejected rows shown, and how to turn it. */
  page: number;
  onPage: (page: number) => void;
}

function JobProgress({ job }: { job: ImportJob }) {
  const { t } = useTranslation();
  const { lang } = useShell();
  const { rowsDone, rowsTotal, exact, percent, phase } = job.progress;
  const rows = { done: formatNumber(rowsDone, lang), total: formatNumber(rowsTotal, lang) };
  return (
    <div className="tm-import-progress" data-testid="import-progress" data-phase={phase}>
      <ProgressBar value={Math.floor(percent)} aria-label={t('import.progress.label')} />
      <p>
        <strong>{t(`import.phase.${phase}`, { defaultValue: phase })}</strong>{' · '}
        <span data-testid="import-progress-rows">{t(exact ? 'import.progress.rows' : 'import.progress.rowsAbout', rows)}</span>
      </p>
    </div>
  );
}

function JobCounts({ job }: { job: ImportJob }) {
  const { t } = useTranslation();
  const { lang } = useShell();
  const tense = job.dryRun ? 'would' : 'did';
  return (
    <dl className="tm-import-counts" data-testid="import-counts">
      {COUNT_KEYS.map((k) => (
        <div key={k} className={`tm-import-count tm-import-count--${k}`}>
          <dt>{t(`import.count.${tense}.${k}`)}</dt>
          <dd data-testid={`import-count-${k}`} data-value={job.counts[k]}>{formatNumber(job.counts[k], lang)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What the job came to in one sentence, besides the counts. */
function JobOutcome({ job }: { job: ImportJob }) {
  const { t } = useTranslation();
  const { lang } = useShell();
  if (job.error) return <Message severity="error" text={messageText(job.error, lang, t)} data-testid="import-job-error" />;
  if (job.status !== 'succeeded') return null;
  const key = job.dryRun
    ? (job.counts.reject > 0 ? 'import.outcome.dryRunRejects' : 'import.outcome.dryRunClean')
    : (job.counts.reject > 0 ? 'import.outcome.importedSome' : 'import.outcome.imported');
  return <Message severity={job.counts.reject > 0 ? 'warn' : 'success'} text={t(key)} data-testid="import-outcome" />;
}

/** One import: what, who and when; progress while it runs; then the counts, every rejected cell, and how the columns were read. */
export function JobView({ job, imports, page, onPage }: JobViewProps) {
  const { t } = useTranslation();
  const { registry, lang } = useShell();
  const fields = formOf(registry, job.entity)?.fields ?? [];
  const finished = isFinished(job.status);
  const entity = registry.entities[job.entity] ? localize(registry.entities[job.entity].pluralLabel, lang) : job.entity;
  const seconds = durationSeconds(job);
  return (
    <section className="tm-import-job" data-testid="import-job" data-status={job.status} data-dry-run={String(job.dryRun)} aria-live="polite">
      <header className="tm-import-section-header">
        <h2>{t(job.dryRun ? 'import.result.dryRun' : 'import.result.import', { file: job.fileName, entity })}</h2>
        <Tag value={t(`import.status.${job.status}`)} severity={statusSeverity(job.status)} data-testid="import-status" />
      </header>
      <p className="tm-import-meta">
        {t('import.result.meta', { who: job.createdBy?.displayName || job.createdBy?.email || '', when: localTime(job.createdAt) })}
        {' · '}{t(job.mode === 'valid-only' ? 'import.result.validOnly' : 'import.result.allOrNothing')}
        {seconds !== undefined && <>{' · '}{t('import.result.took', { seconds: formatNumber(seconds, lang) })}</>}
      </p>
      {!finished && <JobProgress job={job} />}
      {finished && <JobCounts job={job} />}
      <JobOutcome job={job} />
      {job.messages.map((m) => <Message key={m.code} severity={m.severity === 'error' ? 'error' : 'warn'} text={messageText(m, lang, t)} data-testid="import-file-message" />)}
      {finished && <JobErrors job={job} imports={imports} fields={fields} lang={lang} page={page} onPage={onPage} />}
      <JobColumns job={job} fields={fields} lang={lang} />
    </section>
  );
}

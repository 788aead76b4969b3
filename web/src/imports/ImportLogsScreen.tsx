import './imports.css';
import type { ColumnDef } from '@tanstack/react-table';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { Tag } from 'primereact/tag';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router-dom';
import { localize } from '../../../engine/src/index';
import { errorText } from '../api/errorText';
import { useServices } from '../app/services';
import { Page } from '../components/Page';
import type { ScreenProps } from '../screens/types';
import { useShell } from '../shell/shellContext';
import { importsApi, type ImportsApi } from './api';
import { JobView } from './JobView';
import { COUNT_KEYS, formatNumber, hasErrorFile, isFinished, LOGS_PAGE_SIZE, localTime, statusSeverity, type ImportJob, type JobPage } from './logic';
import { PagedTable } from './PagedTable';
import { useJob } from './useJob';

/** The logs are asked for again this often while an import on the page is still running. */
const REFRESH_MS = 2000;

function useJobPage(imports: ImportsApi, page: number) {
  const [answer, setAnswer] = useState<JobPage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let stop = false;
    imports.list(page).then((a) => { if (!stop) { setAnswer(a); setError(null); } }, (e: unknown) => { if (!stop) setError(e); });
    return () => { stop = true; };
  }, [imports, page, tick]);
  const running = answer?.data.some((j) => !isFinished(j.status)) ?? false;
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => setTick((n) => n + 1), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [running, answer]);
  return { answer, error };
}

function LogList({ imports }: { imports: ImportsApi }) {
  const { t } = useTranslation();
  const { registry, lang } = useShell();
  const [page, setPage] = useState(1);
  const { answer, error } = useJobPage(imports, page);
  const navigate = useNavigate();
  const columns = useMemo<ColumnDef<ImportJob>[]>(() => [
    { id: 'when', header: t('import.log.when'), cell: ({ row }) => localTime(row.original.createdAt) },
    { id: 'who', header: t('import.log.who'), cell: ({ row }) => row.original.createdBy?.displayName || row.original.createdBy?.email },
    {
      id: 'file',
      header: t('import.log.file'),
      cell: ({ row }) => (
        <span className="tm-import-file">
          <Link to={encodeURIComponent(row.original.id)} className="tm-import-open" data-testid="import-log-open">{row.original.fileName}</Link>
          <small>{t(row.original.dryRun ? 'import.log.dryRun' : 'import.log.import')}</small>
        </span>
      ),
    },
    { id: 'entity', header: t('import.log.entity'), cell: ({ row }) => { const def = registry.entities[row.original.entity]; return def ? localize(def.pluralLabel, lang) : row.original.entity; } },
    {
      id: 'status',
      header: t('import.log.status'),
      cell: ({ row }) => {
        const j = row.original;
        const label = isFinished(j.status) ? t(`import.status.${j.status}`) : `${t(`import.status.${j.status}`)} ${Math.floor(j.progress.percent)} %`;
        return <Tag value={label} severity={statusSeverity(j.status)} />;
      },
    },
    ...COUNT_KEYS.map((k): ColumnDef<ImportJob> => ({
      id: k,
      header: t(`import.log.${k}`),
      cell: ({ row }) => <span className="tm-import-number" data-testid={`import-log-${k}`} data-value={row.original.counts[k]}>{formatNumber(row.original.counts[k], lang)}</span>,
    })),
    {
      id: 'errorFile',
      header: t('import.log.errorFile'),
      cell: ({ row }) => hasErrorFile(row.original) && (
        <Button link size="small" className="tm-import-link" label={t('import.log.download')} icon="pi pi-download" data-testid="import-log-error-file"
          onClick={() => void imports.download(row.original.errorFile!, `${row.original.entity}-errors.csv`)} />
      ),
    },
  ], [t, registry, lang, imports]);
  return (
    <>
      {error !== null && <Message severity="error" text={errorText(error, t)} />}
      <PagedTable
        data={answer?.data ?? []}
        columns={columns}
        total={answer?.total ?? 0}
        page={page}
        pageSize={LOGS_PAGE_SIZE}
        onPage={setPage}
        summary={t('import.log.summary', { count: answer?.total ?? 0, total: formatNumber(answer?.total ?? 0, lang) })}
        testId="import-logs"
        onRowClick={(j) => navigate(encodeURIComponent(j.id))}
        rowAttributes={(j) => ({ 'data-testid': 'import-log-row', 'data-id': j.id, 'data-status': j.status, 'data-dry-run': String(j.dryRun) })}
        empty={t('import.log.empty')}
        loading={answer === null && error === null}
      />
    </>
  );
}

function LogDetail({ imports }: { imports: ImportsApi }) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { job, error, page, setPage } = useJob(imports, id);
  return (
    <>
      <Link to=".." relative="path" className="tm-import-back" data-testid="import-log-back"><i className="pi pi-arrow-left" aria-hidden="true" /> {t('import.log.back')}</Link>
      {error && <Message severity="error" text={errorText(error, t)} data-testid="import-log-error" />}
      {job && <JobView job={job} imports={imports} page={page} onPage={setPage} />}
    </>
  );
}

/** `/data-import/logs`: every import, newest first; `/data-import/logs/:id` one import's result and error file. */
export default function ImportLogsScreen({ route }: ScreenProps) {
  const { api } = useServices();
  const imports = useMemo(() => importsApi(api), [api]);
  return (
    <Page title={route?.name ?? ''} icon={route?.icon}>
      <Routes>
        <Route index element={<LogList imports={imports} />} />
        <Route path=":id" element={<LogDetail imports={imports} />} />
      </Routes>
    </Page>
  );
}

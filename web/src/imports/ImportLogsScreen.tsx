import './imports.css';
import { Button } from 'primereact/button';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../app/services';
import { Page } from '../components/Page';
import type { ScreenProps } from '../screens/types';
import { importsApi, type JobList } from './api';
import { JobView } from './JobView';
import { Pager } from './Pager';
import type { ImportJob } from './logic';
import { useJob } from './useJob';

/** `/data-import/logs`: every import, newest first, each opening to its result and error file. */
export default function ImportLogsScreen({ route }: ScreenProps) {
  const { t } = useTranslation();
  const { api } = useServices();
  const imports = useMemo(() => importsApi(api), [api]);
  const [page, setPage] = useState(1);
  const [list, setList] = useState<JobList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<ImportJob | null>(null);
  const [errorsPage, setErrorsPage] = useState(1);
  const { job } = useJob(imports, open, errorsPage);
  useEffect(() => {
    imports.list(page).then(setList, (e: Error) => setError(e.message));
  }, [imports, page]);
  const pages = list ? Math.max(1, Math.ceil(list.total / list.pageSize)) : 1;
  return (
    <Page title={route?.name ?? ''} icon={route?.icon}>
      {error && <p role="alert">{error}</p>}
      <table className="tm-import-logs" data-testid="import-logs">
        <thead>
          <tr>
            {['when', 'who', 'file', 'entity', 'kind', 'status', 'counts', 'errorFile'].map((c) => <th key={c}>{t(`import.log.${c}`)}</th>)}
          </tr>
        </thead>
        <tbody>
          {list?.data.map((j) => (
            <tr key={j.id} data-testid="import-log-row" data-status={j.status} data-dry-run={String(j.dryRun)}>
              <td>{j.createdAt.slice(0, 19).replace('T', ' ')}</td>
              <td>{j.createdBy?.displayName || j.createdBy?.email}</td>
              <td><Button link label={j.fileName} onClick={() => { setErrorsPage(1); setOpen(j); }} data-testid="import-log-open" /></td>
              <td>{j.entity}</td>
              <td>{t(j.dryRun ? 'import.log.dryRun' : 'import.log.import')}</td>
              <td>{t(`import.status.${j.status}`)}</td>
              <td data-testid="import-log-counts">{t('import.log.countsText', { ...j.counts })}</td>
              <td>{j.errorFile && j.counts.reject > 0 && <Button link label={t('import.errorFile')} onClick={() => void imports.download(j.errorFile!, `${j.entity}-errors.csv`)} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager page={page} pages={pages} onPage={setPage} />
      {job && <JobView job={job} imports={imports} page={errorsPage} onPage={setErrorsPage} />}
    </Page>
  );
}

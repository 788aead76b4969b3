import './imports.css';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import { RadioButton } from 'primereact/radiobutton';
import { SelectButton } from 'primereact/selectbutton';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localize } from '../../../engine/src/index';
import { errorText } from '../api/errorText';
import { useServices } from '../app/services';
import { Page } from '../components/Page';
import { mayOpenEntity } from '../masterdata/catalogue';
import type { ScreenProps } from '../screens/types';
import { useShell } from '../shell/shellContext';
import { importsApi } from './api';
import { JobView } from './JobView';
import { importableFor, isFinished, templatePath, type HeaderKind, type ImportJob, type ImportMode } from './logic';
import { useJob } from './useJob';

const MODES: { value: ImportMode; key: string; hint: string }[] = [
  { value: 'all-or-nothing', key: 'import.mode.all', hint: 'import.mode.allHint' },
  { value: 'valid-only', key: 'import.mode.validOnly', hint: 'import.mode.validOnlyHint' },
];

/**
 * `/data-import/import` (master data) and `/data-import/event` (events): pick what to import,
 * download its template, upload a file as a dry run or an import, and follow the job. Keyed
 * by the route, so going from one to the other through the menu starts afresh.
 */
export default function ImportScreen({ route }: ScreenProps) {
  return <ImportForm key={route?.path ?? ''} route={route} />;
}

function ImportForm({ route }: ScreenProps) {
  const { t } = useTranslation();
  const { api } = useServices();
  const { registry, lang, principal } = useShell();
  const imports = useMemo(() => importsApi(api), [api]);
  const entities = importableFor(registry, route?.path).filter((e) => mayOpenEntity(registry, principal, e));
  const [entity, setEntity] = useState(entities[0] ?? '');
  const [headers, setHeaders] = useState<HeaderKind>('ids');
  const [mode, setMode] = useState<ImportMode>('all-or-nothing');
  const [file, setFile] = useState<File | null>(null);
  const [started, setStarted] = useState<ImportJob | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<number | null>(null);
  const { job, error, page, setPage } = useJob(imports, started?.id ?? null, started);
  const running = job !== null && !isFinished(job.status);
  // A job the server no longer answers for (gone, forbidden) does not hold the form.
  const busy = uploaded !== null || (running && error === null);

  const start = async (dryRun: boolean) => {
    if (!file) return;
    setRefused(null);
    setUploaded(0);
    try {
      setStarted(await imports.start(file, { entity, dryRun, mode }, setUploaded));
    } catch (e) {
      setStarted(null);
      setRefused(errorText(e, t));
    } finally {
      setUploaded(null);
    }
  };
  const choose = (next: string) => {
    setEntity(next);
    setStarted(null);
    setRefused(null);
  };
  const download = () => imports.download(templatePath(entity, headers, lang), `${entity}-template.csv`).catch((e: unknown) => setRefused(errorText(e, t)));

  if (entities.length === 0) {
    return <Page title={route?.name ?? ''} icon={route?.icon}><Message severity="warn" text={t('import.noEntities')} /></Page>;
  }
  const options = entities.map((e) => ({ value: e, label: localize(registry.entities[e].pluralLabel, lang) }));
  const headerOptions = [{ value: 'ids', label: t('import.template.ids') }, { value: 'labels', label: t('import.template.labels') }];
  return (
    <Page title={route?.name ?? ''} icon={route?.icon}>
      <form className="tm-import-form" onSubmit={(e) => e.preventDefault()}>
        <fieldset className="tm-import-step">
          <legend>{t('import.step.what')}</legend>
          <label htmlFor="import-entity">{t('import.entity')}</label>
          <Dropdown inputId="import-entity" value={entity} options={options} onChange={(e) => choose(e.value as string)} data-testid="import-entity" />
          <div className="tm-import-template">
            <SelectButton value={headers} options={headerOptions} allowEmpty={false} onChange={(e) => e.value && setHeaders(e.value as HeaderKind)}
              aria-label={t('import.template.headers')} data-testid="import-template-headers" />
            <Button type="button" label={t('import.template.download')} icon="pi pi-download" outlined onClick={() => void download()} data-testid="import-template" />
          </div>
          <small>{t('import.template.hint')}</small>
        </fieldset>
        <fieldset className="tm-import-step">
          <legend>{t('import.step.file')}</legend>
          <label htmlFor="import-file">{t('import.file')}</label>
          <input id="import-file" type="file" accept=".csv,.txt,.gz,text/csv" data-testid="import-file"
            onChange={(e) => { setFile(e.target.files?.[0] ?? null); setRefused(null); }} />
          <small>{t('import.file.hint')}</small>
          <div className="tm-import-modes" role="radiogroup" aria-label={t('import.mode')}>
            <span>{t('import.mode')}</span>
            {MODES.map((m) => (
              <div key={m.value} className="tm-import-mode">
                <RadioButton inputId={`import-mode-${m.value}`} name="import-mode" value={m.value} checked={mode === m.value} onChange={() => setMode(m.value)} />
                <label htmlFor={`import-mode-${m.value}`}>{t(m.key)} <small>{t(m.hint)}</small></label>
              </div>
            ))}
          </div>
          <div className="tm-import-actions">
            <Button type="button" label={t('import.dryRun')} icon="pi pi-search" outlined disabled={!file || busy} onClick={() => void start(true)} data-testid="import-dry-run" />
            <Button type="button" label={t('import.run')} icon="pi pi-upload" disabled={!file || busy} onClick={() => void start(false)} data-testid="import-run" />
          </div>
        </fieldset>
      </form>
      {uploaded !== null && (
        <div className="tm-import-progress" data-testid="import-uploading">
          <ProgressBar value={Math.floor(uploaded * 100)} aria-label={t('import.uploading')} />
          <p>{t('import.uploading')}</p>
        </div>
      )}
      {refused && <Message severity="error" text={refused} data-testid="import-refused" className="tm-import-refused" />}
      {error && <Message severity="error" text={errorText(error, t)} data-testid="import-poll-error" />}
      {job && <JobView job={job} imports={imports} page={page} onPage={setPage} />}
    </Page>
  );
}

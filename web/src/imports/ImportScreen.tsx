import './imports.css';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { Message } from 'primereact/message';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localize } from '../../../engine/src/index';
import { useServices } from '../app/services';
import { Page } from '../components/Page';
import type { ScreenProps } from '../screens/types';
import { useShell } from '../shell/shellContext';
import { importsApi } from './api';
import { JobView } from './JobView';
import { importableFor, templatePath, type ImportJob } from './logic';
import { useJob } from './useJob';

/** `/data-import/import` and `/data-import/event`: template, upload, dry run, import with progress. */
export default function ImportScreen({ route }: ScreenProps) {
  const { t } = useTranslation();
  const { api } = useServices();
  const { registry, lang } = useShell();
  const imports = useMemo(() => importsApi(api), [api]);
  const entities = importableFor(route?.path).filter((e) => registry.entities[e]);
  const [entity, setEntity] = useState(entities[0] ?? '');
  const [mode, setMode] = useState<'all-or-nothing' | 'valid-only'>('all-or-nothing');
  const [file, setFile] = useState<File | null>(null);
  const [started, setStarted] = useState<ImportJob | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [page, setPage] = useState(1);
  const input = useRef<HTMLInputElement>(null);
  const { job, error } = useJob(imports, started, page);

  const start = async (dryRun: boolean) => {
    if (!file) return;
    setBusy(true);
    setRefused(null);
    setPage(1);
    try {
      setStarted(await imports.start(file, { entity, dryRun, mode }));
    } catch (e) {
      setRefused((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const options = entities.map((e) => ({ value: e, label: localize(registry.entities[e].pluralLabel, lang) }));
  const modes = [{ value: 'all-or-nothing', label: t('import.mode.all') }, { value: 'valid-only', label: t('import.mode.validOnly') }];
  return (
    <Page title={route?.name ?? ''} icon={route?.icon}>
      <div className="tm-import-form">
        <label>
          {t('import.entity')}
          <Dropdown value={entity} options={options} onChange={(e) => setEntity(e.value as string)} data-testid="import-entity" inputId="import-entity" />
        </label>
        <Button label={t('import.template')} icon="pi pi-download" text data-testid="import-template"
          onClick={() => void imports.download(templatePath(entity, 'ids', lang), `${entity}-template.csv`)} />
        <label>
          {t('import.file')}
          <input ref={input} type="file" accept=".csv,text/csv" data-testid="import-file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <label>
          {t('import.mode')}
          <Dropdown value={mode} options={modes} onChange={(e) => setMode(e.value as typeof mode)} data-testid="import-mode" />
        </label>
        <div className="tm-import-actions">
          <Button label={t('import.dryRun')} icon="pi pi-search" outlined disabled={!file || busy} onClick={() => void start(true)} data-testid="import-dry-run" />
          <Button label={t('import.run')} icon="pi pi-upload" disabled={!file || busy} onClick={() => void start(false)} data-testid="import-run" />
        </div>
      </div>
      {refused && <Message severity="error" text={refused} data-testid="import-refused" />}
      {error && <Message severity="error" text={error} />}
      {job && <JobView job={job} imports={imports} page={page} onPage={setPage} />}
    </Page>
  );
}

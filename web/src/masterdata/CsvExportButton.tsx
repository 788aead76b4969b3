import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SortingState } from '@tanstack/react-table';
import { Button } from 'primereact/button';
import { sortParam, stateParam, type StateFilter } from './listState';
import { useMasterData } from './useMasterData';

/** Downloads the current filter across all pages as CSV, streamed by the server. */
export function CsvExportButton({ entity, query, columns }: { entity: string; query: { q: string; sort: SortingState; filter: StateFilter }; columns: string[] }) {
  const { t } = useTranslation();
  const { md } = useMasterData();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const blob = await md.exportCsv(entity, { q: query.q, sort: sortParam(query.sort), state: stateParam(query.filter), columns });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `${entity}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button label={t('masterdata.action.export')} icon="pi pi-download" outlined loading={busy} onClick={() => void run()} data-testid="list-export" />
      {error && <small className="p-error" role="alert" data-testid="export-error">{error}</small>}
    </>
  );
}

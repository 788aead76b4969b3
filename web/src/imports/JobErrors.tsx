import type { ColumnDef } from '@tanstack/react-table';
import { Button } from 'primereact/button';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDef, Lang } from '../../../engine/src/index';
import type { ImportsApi } from './api';
import { fieldLabel } from './columns';
import { ERRORS_PAGE_SIZE, errorLines, formatNumber, hasErrorFile, type ErrorLine, type ImportJob } from './logic';
import { messageText } from './messages';
import { PagedTable } from './PagedTable';

export interface JobErrorsProps {
  job: ImportJob;
  imports: ImportsApi;
  fields: readonly FieldDef[];
  lang: Lang;
  page: number;
  onPage: (page: number) => void;
}

/** Every rejected cell at its spreadsheet row and column as written in the file, 50 rows a page, and the error file. */
export function JobErrors({ job, imports, fields, lang, page, onPage }: JobErrorsProps) {
  const { t } = useTranslation();
  const columns = useMemo<ColumnDef<ErrorLine>[]>(() => [
    { id: 'row', header: t('import.errors.row'), cell: ({ row }) => row.original.row },
    {
      id: 'column',
      header: t('import.errors.column'),
      cell: ({ row }) => {
        const { column, field } = row.original;
        if (!column) return <em>{t('import.errors.wholeRow')}</em>;
        const label = field ? fieldLabel(fields, field, lang) : '';
        return (
          <span className="tm-import-column">
            <code>{column}</code>
            {label && label !== column && <small>{label}</small>}
          </span>
        );
      },
    },
    { id: 'message', header: t('import.errors.message'), cell: ({ row }) => messageText(row.original, lang, t, fields) },
  ], [t, fields, lang]);
  const errors = job.errors;
  const download = hasErrorFile(job) && (
    <Button label={t('import.errors.download')} icon="pi pi-download" outlined data-testid="import-error-file"
      onClick={() => void imports.download(job.errorFile!, `${job.entity}-errors.csv`)} />
  );
  if (!errors || errors.total === 0) return download || null;
  return (
    <section className="tm-import-errors" aria-labelledby={`import-errors-${job.id}`}>
      <header className="tm-import-section-header">
        <h3 id={`import-errors-${job.id}`}>{t('import.errors.title')}</h3>
        {download}
      </header>
      <PagedTable
        data={errorLines(errors)}
        columns={columns}
        total={errors.total}
        page={page}
        pageSize={errors.pageSize || ERRORS_PAGE_SIZE}
        onPage={onPage}
        summary={t('import.errors.summary', { rows: formatNumber(errors.total, lang) })}
        testId="import-errors"
        rowAttributes={(l) => ({ 'data-testid': 'import-error-row', 'data-row': String(l.row), 'data-column': l.column })}
      />
    </section>
  );
}

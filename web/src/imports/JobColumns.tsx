import { useTranslation } from 'react-i18next';
import type { FieldDef, Lang } from '../../../engine/src/index';
import { columnMapping } from './columns';
import type { ImportJob } from './logic';

/**
 * How the file's headers were read: the columns not imported first, then each column and the
 * field it fills. Folded: the file-level message already names the columns left out.
 */
export function JobColumns({ job, fields, lang }: { job: ImportJob; fields: readonly FieldDef[]; lang: Lang }) {
  const { t } = useTranslation();
  const { mapped, unknown, ignored } = columnMapping(job, fields, lang);
  if (mapped.length === 0 && unknown.length === 0) return null;
  return (
    <details className="tm-import-columns" data-testid="import-columns">
      <summary>{unknown.length > 0 && <i className="pi pi-exclamation-triangle" aria-hidden="true" />} {t('import.columns.summary', { mapped: mapped.length, unknown: unknown.length + ignored.length })}</summary>
      <table className="tm-import-mapping">
        <thead>
          <tr><th>{t('import.columns.header')}</th><th>{t('import.columns.field')}</th></tr>
        </thead>
        <tbody>
          {unknown.map((h) => (
            <tr key={`u-${h}`} className="tm-import-unknown" data-testid="import-column-unknown" data-header={h}>
              <td><code>{h}</code></td>
              <td><i className="pi pi-exclamation-triangle" aria-hidden="true" /> {t('import.columns.unknown')}</td>
            </tr>
          ))}
          {ignored.map((h) => (
            <tr key={`i-${h}`} data-testid="import-column-ignored" data-header={h}>
              <td><code>{h}</code></td>
              <td>{t('import.columns.ignored')}</td>
            </tr>
          ))}
          {mapped.map((c) => (
            <tr key={c.header} data-testid="import-column-mapped" data-header={c.header} data-path={c.path}>
              <td><code>{c.header}</code></td>
              <td>{c.label}{c.header !== c.path && <small> ({c.path})</small>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Button } from 'primereact/button';
import { localize, type Lang, type Registry, type ReportDef } from '../../../engine/src/index';
import type { RefTitles } from '../../../engine/src/list/index';
import { errorText } from '../api/errorText';
import { localTime } from '../imports/logic';
import { sortParam } from '../masterdata/listState';
import { useMasterData } from '../masterdata/useMasterData';
import { useTitles } from '../operations/useLookups';
import { useReports } from './context';
import { reportColumns } from '../../../engine/src/index';
import { stateOfSearch, toParams, type FilterValues, type Range } from './filters';
import { ReportCell } from './ReportCell';

/** Rows a printed report holds at most, read in pages of the largest size the route serves; the CSV export has everything. */
export const PRINT_MAX_ROWS = 1000;
const PRINT_PAGE = 200;

/** The applied filters in words, "label: value", for the printed page's head; references by their records' titles. */
export function filterSummary(def: ReportDef, values: FilterValues, registry: Registry, lang: Lang, t: TFunction, titles?: RefTitles): string[] {
  return def.filters.flatMap((f) => {
    const v = values[f.id];
    const label = localize(f.label, lang);
    if (f.type === 'date_range' || f.type === 'number_range') {
      const r = v as Range;
      return r.from || r.to ? [`${label}: ${r.from || '…'} – ${r.to || '…'}`] : [];
    }
    if (Array.isArray(v)) {
      if (!v.length) return [];
      const states = registry.workflows[f.workflow ?? '']?.states;
      const name = (x: string) => localize(f.type === 'status' ? states?.find((s) => s.id === x)?.label : f.options?.find((o) => String(o.value) === x)?.label, lang) || x;
      return [`${label}: ${v.map(name).join(', ')}`];
    }
    if (typeof v !== 'string' || !v) return [];
    const text = f.type === 'boolean' ? t(v === 'true' ? 'common.yes' : 'common.no') : f.type === 'reference' ? titles?.[f.ref ?? '']?.[v] ?? v : v;
    return [`${label}: ${text}`];
  });
}

/** /generate-report: one report print-ready with the filters of its address, a Print button, and no controls on paper. */
export function PrintView({ def }: { def: ReportDef }) {
  const { t } = useTranslation();
  const { registry, lang } = useMasterData();
  const { reports } = useReports();
  const [params] = useSearchParams();
  const { values, sorting } = useMemo(() => stateOfSearch(def, params), [def, params]);
  const [rows, setRows] = useState<Record<string, unknown>[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [at] = useState(() => new Date().toISOString());

  useEffect(() => {
    let live = true;
    setRows(null);
    setError(null);
    (async () => {
      const out: Record<string, unknown>[] = [];
      for (let page = 1; out.length < PRINT_MAX_ROWS; page++) {
        const a = await reports.rows(def, toParams(def.filters, values), page, PRINT_PAGE, sortParam(sorting));
        out.push(...a.rows);
        if (!a.hasMore) return { out, more: false };
      }
      return { out: out.slice(0, PRINT_MAX_ROWS), more: true };
    })().then((r) => { if (live) { setRows(r.out); setMore(r.more); } }, (e: unknown) => live && setError(errorText(e, t)));
    return () => { live = false; };
  }, [reports, def, values, sorting, t]);

  const cells = useMemo(() => reportColumns(registry, def, lang), [registry, def, lang]);
  const titles = useTitles(useMemo(() => new Map(def.filters.filter((f) => f.type === 'reference' && f.ref && values[f.id]).map((f) => [f.ref!, new Set([values[f.id] as string])])), [def, values]));
  const summary = filterSummary(def, values, registry, lang, t, titles);

  return (
    <section className="tm-rep tm-rep-print" data-testid="report-print" data-report={def.key}>
      <header className="tm-rep__head">
        <h2>{localize(def.label, lang)}</h2>
        <p className="tm-rep__meta">{t('reports.print.generated', { at: localTime(at) })}</p>
        <p className="tm-rep__meta" data-testid="report-print-filters">{summary.length ? summary.join(' · ') : t('reports.print.noFilters')}</p>
        <Button className="tm-rep-noprint" label={t('reports.print.print')} icon="pi pi-print" onClick={() => window.print()} data-testid="report-print-button" disabled={!rows} />
      </header>
      {error && <div className="p-message p-message-error" role="alert" data-testid="list-error">{error}</div>}
      {!error && !rows && <div aria-busy="true">{t('common.loading')}</div>}
      {rows && (
        <table className="tm-rep-print__table">
          <thead><tr>{cells.map((c) => <th key={c.id} scope="col">{c.label}</th>)}</tr></thead>
          <tbody>
            {rows.map((r, i) => <tr key={i} data-testid="print-row">{cells.map((c, j) => <td key={c.id}><ReportCell column={c} def={def.columns[j]} row={r} /></td>)}</tr>)}
            {rows.length === 0 && <tr><td colSpan={cells.length}>{t('reports.empty')}</td></tr>}
          </tbody>
        </table>
      )}
      {more && <p className="tm-rep__meta" data-testid="report-print-more">{t('reports.print.more', { rows: PRINT_MAX_ROWS })}</p>}
    </section>
  );
}

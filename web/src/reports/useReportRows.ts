import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SortingState } from '@tanstack/react-table';
import type { ReportDef } from '../../../engine/src/index';
import { errorText } from '../api/errorText';
import { PAGE_SIZE, sortParam } from '../masterdata/listState';
import { useServerList } from '../masterdata/useServerList';
import { useReports } from './context';
import { toParams, type FilterValues } from './filters';

type Row = Record<string, unknown>;

/** A page of rows as the server-paged table reads it; `total` is the count once known, else what the pages seen so far prove. */
export interface RowsPage {
  data: Row[];
  total: number;
  hasMore: boolean;
}

/** The total the pager shows before the count arrives: the rows up to this page, plus one more page when the server says there is more. */
export function provisionalTotal(pageIndex: number, rows: number, hasMore: boolean): number {
  return pageIndex * PAGE_SIZE + rows + (hasMore ? 1 : 0);
}

/**
 * One report's rows, server-paged and sorted, for the committed filters; the count asked
 * beside them (it may take longer on a big report) and shown when it arrives. Both are asked
 * again when the filters or the selected warehouse change.
 */
export function useReportRows(def: ReportDef, initial: { values: FilterValues; sorting: SortingState }) {
  const { t } = useTranslation();
  const { reports, warehouseName } = useReports();
  const list = useServerList<FilterValues, { data: Row[]; hasMore: boolean; pageIndex: number }>({
    debounceMs: 0, initialSorting: initial.sorting, initialFilters: initial.values, scope: [reports, def, warehouseName, t], clearOnError: true,
    load: async ({ pageIndex, sorting, filters }) => {
      const a = await reports.rows(def, toParams(def.filters, filters), pageIndex + 1, PAGE_SIZE, sortParam(sorting));
      return { data: a.rows, hasMore: a.hasMore, pageIndex };
    },
    errorText: (e) => errorText(e, t),
  });
  const [count, setCount] = useState<{ filters: FilterValues; total: number } | null>(null);
  const filters = list.filters;
  useEffect(() => {
    let live = true;
    setCount(null);
    reports.count(def.key, toParams(def.filters, filters)).then((a) => live && setCount({ filters, total: a.total }), () => undefined);
    return () => { live = false; };
  }, [reports, def, filters, warehouseName]);
  const total = count?.filters === filters ? count.total : null;
  const raw = list.answer;
  const answer: RowsPage | null = raw ? { data: raw.data, hasMore: raw.hasMore, total: total ?? provisionalTotal(raw.pageIndex, raw.data.length, raw.hasMore) } : null;
  return { ...list, answer, total };
}

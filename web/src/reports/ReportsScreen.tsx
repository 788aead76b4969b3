import '../operations/operations.css';
import './reports.css';
import { useEffect, useMemo } from 'react';
import { Route, Routes, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { localize, type FeatureDef, type ReportFeatureDef } from '../../../engine/src/index';
import { useServices } from '../app/services';
import type { GoToPayload } from '../frame/messages';
import { useMasterData } from '../masterdata/useMasterData';
import { reportsApi } from './api';
import { Catalogue } from './Catalogue';
import { runnableReport } from './catalogue';
import { ReportsContext } from './context';
import { printPathOf } from './links';
import { PrintView } from './PrintView';
import { ReportView } from './ReportView';

/** A report the address names, drawn by `as`; an unknown or forbidden key says so. */
function ByKey({ as, fixedKey, back }: { as: 'screen' | 'print'; fixedKey?: string; back: boolean }) {
  const { t } = useTranslation();
  const { key: routeKey } = useParams();
  const { registry, principal } = useMasterData();
  const key = fixedKey ?? routeKey ?? '';
  const def = runnableReport(registry, principal, key);
  if (!def) return <p className="tm-empty__text" role="alert" data-testid="report-unknown">{t('reports.unknown', { key })}</p>;
  return as === 'print' ? <PrintView key={def.key} def={def} /> : <ReportView key={def.key} def={def} back={back} />;
}

/** The shell hands a report feature its query (`?report=<key>&<filters>`, as "Generate report" or a link gives it): opened here as `#/<key>?<filters>`. */
function ReportDeepLink() {
  const navigate = useNavigate();
  useEffect(() => {
    const to = printPathOf(window.location.search);
    if (to && (window.location.hash === '' || window.location.hash === '#/')) navigate(to, { replace: true });
  }, [navigate]);
  return null;
}

export interface ReportsScreenProps {
  feature: FeatureDef & { report: ReportFeatureDef };
  warehouseName: string | null;
  goTo: (payload: GoToPayload) => void;
}

/**
 * The report features of the frame (features.json `report`): `catalogue` (/reports: the list,
 * `#/<key>` a report), `print` (/generate-report: `#/<key>?<filters>` print-ready) and
 * `single` (/alerts: the one report `key` names). Definitions come from the registry
 * (/api/config `reports`), rows from the report routes.
 */
export default function ReportsScreen({ feature, warehouseName, goTo }: ReportsScreenProps) {
  const { api } = useServices();
  const { lang } = useMasterData();
  const reports = useMemo(() => reportsApi(api), [api]);
  const value = useMemo(() => ({ reports, warehouseName, goTo }), [reports, warehouseName, goTo]);
  const { view, key } = feature.report;
  return (
    <ReportsContext.Provider value={value}>
      <main className={`tm-guest tm-rep-screen tm-rep-screen--${view}`} data-testid="reports-screen" data-feature={feature.id} data-view={view}>
        {view !== 'print' && <h1 className="tm-op__title">{localize(feature.name, lang)}</h1>}
        {view !== 'single' && <ReportDeepLink />}
        <Routes>
          {view === 'single' && <Route index element={<ByKey as="screen" fixedKey={key} back={false} />} />}
          {view === 'catalogue' && <Route index element={<Catalogue />} />}
          {view === 'catalogue' && <Route path=":key" element={<ByKey as="screen" back />} />}
          {view === 'print' && <Route path=":key" element={<ByKey as="print" back={false} />} />}
          {view === 'print' && <Route index element={<PrintIndex />} />}
        </Routes>
      </main>
    </ReportsContext.Provider>
  );
}

/** /generate-report opened without a report. */
function PrintIndex() {
  const { t } = useTranslation();
  return <p className="tm-empty__text" data-testid="report-unknown">{t('reports.print.none')}</p>;
}

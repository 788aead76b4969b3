import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { localize, type ChartData, type DashboardDef, type DashboardWidgetDef, type KpiData, type Lang } from '../../../engine/src/index';
import { errorText } from '../api/errorText';
import { useMasterData } from '../masterdata/useMasterData';
import { mapSettings } from '../masterdata/widgets/mapLogic';
import { useShell } from '../shell/shellContext';
import { useDashboard } from './context';
import { figure, labelText, widgetLink, type BarValues } from './model';
import { TableWidget } from './TableWidget';
import { useWidgetData } from './useWidgetData';
import { ChartWidget, MapWidget } from './widgetChunks';

const Skeleton = () => <div className="tm-dash-skeleton" data-testid="widget-skeleton" aria-hidden="true" />;

/** A chart in words (its accessible name): the title, then each category's figures. */
function chartWords(title: string, data: ChartData, lang: Lang): string {
  const parts = data.categories.slice(0, 24).map((c, i) => `${labelText(c.label, lang)} ${data.series.map((s) => figure(s.values[i] ?? 0, lang)).join(' / ')}`);
  return `${title}: ${parts.join(', ')}`;
}

function Kpi({ widget, data, lang }: { widget: DashboardWidgetDef; data: KpiData; lang: Lang }) {
  const { t } = useTranslation();
  const goal = widget.goal;
  return (
    <div className={`tm-dash-kpi${data.state ? ` tm-dash-kpi--${data.state}` : ''}`}>
      <p className="tm-dash-kpi__value" data-testid="widget-kpi" data-value={data.value} data-state={data.state ?? ''} data-painted="true">
        {figure(data.value, lang)}{widget.unit && <span className="tm-dash-kpi__unit"> {localize(widget.unit, lang)}</span>}
      </p>
      {goal && (
        <p className="tm-dash-kpi__goal">
          {data.state === 'bad' && <i className="pi pi-exclamation-triangle" aria-hidden="true" />}
          {goal.max !== undefined ? t('dashboards.goal.max', { value: figure(goal.max, lang) }) : t('dashboards.goal.min', { value: figure(goal.min ?? 0, lang) })}
        </p>
      )}
    </div>
  );
}

export interface WidgetCardProps {
  dashboard: DashboardDef;
  widget: DashboardWidgetDef;
  /** The routes' query parameters of the bar, and the string that changes when they or the group do. */
  params: Record<string, string>;
  reload: string;
  bar: BarValues;
  today: string;
}

/**
 * One widget of the grid: it loads its own data (a skeleton meanwhile) and paints as soon as it
 * comes, whatever the others do; a widget whose report or named query is not the user's says so
 * in its slot. Its link (top right) opens the feature it names, a report with the widget's filters.
 */
export function WidgetCard({ dashboard, widget, params, reload, bar, today }: WidgetCardProps) {
  const { t } = useTranslation();
  const { registry, lang } = useMasterData();
  const shell = useShell();
  const { api, goTo } = useDashboard();
  const state = useWidgetData(api, dashboard.key, widget.id, params, reload);
  const title = localize(widget.title, lang);
  const link = widgetLink(shell, dashboard, widget, bar, today);
  const report = widget.source.report !== undefined ? registry.reports[widget.source.report] : undefined;

  let body;
  if (state.status === 'loading') body = <Skeleton />;
  else if (state.status === 'forbidden') body = <p className="tm-dash-locked" data-testid="widget-forbidden"><i className="pi pi-lock" aria-hidden="true" /> {t('dashboards.forbidden')}</p>;
  else if (state.status === 'failed') body = <p className="tm-dash-failed" role="alert" data-testid="widget-error">{errorText(state.error, t)}</p>;
  else {
    const data = state.data;
    if (data.kind === 'kpi') body = <Kpi widget={widget} data={data} lang={lang} />;
    else if (data.kind === 'chart') {
      body = data.categories.length === 0
        ? <p className="tm-dash-empty" data-testid="widget-empty" data-painted="true">{t('dashboards.noData')}</p>
        : (
          <>
            <Suspense fallback={<Skeleton />}><ChartWidget kind={widget.chart ?? 'bar'} dated={widget.interval !== undefined} data={data} lang={lang} label={chartWords(title, data, lang)} /></Suspense>
            {data.more > 0 && <p className="tm-dash-note">{t('dashboards.more', { count: data.more })}</p>}
          </>
        );
    } else if (data.kind === 'map') {
      body = (
        <>
          <Suspense fallback={<Skeleton />}><MapWidget data={data} settings={mapSettings(registry.deployment.settings)} lang={lang} label={title} /></Suspense>
          {data.points.length === 0 && <p className="tm-dash-note" data-testid="widget-empty">{t('dashboards.noPlaces')}</p>}
          {data.unplaced > 0 && <p className="tm-dash-note" data-testid="widget-unplaced">{t('dashboards.unplaced', { value: figure(data.unplaced, lang) })}</p>}
        </>
      );
    } else body = report ? <TableWidget widget={widget} report={report} data={data} /> : null;
  }

  return (
    <article className={`tm-dash-card tm-dash-card--${widget.type}`} style={{ gridColumn: `span ${widget.size.w}`, gridRow: `span ${widget.size.h}` }}
      data-testid="widget" data-widget={widget.id} data-type={widget.type} data-state={state.status} aria-busy={state.status === 'loading'}>
      <header className="tm-dash-card__head">
        <h2 className="tm-dash-card__title" title={widget.description ? localize(widget.description, lang) : undefined}>{title}</h2>
        {link && (
          <button type="button" className="tm-dash-card__link p-button p-button-text p-button-sm" data-testid="widget-link" aria-label={t('dashboards.open', { title })} title={t('dashboards.open', { title })}
            onClick={() => goTo(link)}>
            <i className="pi pi-external-link" aria-hidden="true" />
          </button>
        )}
      </header>
      <div className="tm-dash-card__body">{body}</div>
    </article>
  );
}

import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { fieldAt, formOf, getPath, localize, type FieldDef } from '../../../engine/src/index';
import { cellText, columnsOf, recordTitle } from '../../../engine/src/list/index';
import { errorText } from '../api/errorText';
import { useMasterData } from '../masterdata/useMasterData';
import { useToast } from '../toasts/toast';
import type { AllowedTransition, OperationAnswer } from './api';
import { useOperation } from './context';
import { EventsTimeline } from './EventsTimeline';
import { ADR_DATE_FIELDS, ageYears, alertDaysBefore, dateAlert, IBC_EVENT_LOG, localToday, MANUFACTURE_FIELD } from './fleet';
import { historyOf, historyWhen, isEditable, lineParts, linesOf, stockKey } from './model';
import { StateBadge } from './StateBadge';
import { SyncPanel } from './SyncPanel';
import { TransitionDialog } from './TransitionDialog';
import { referencedByRecord, useLineStock, useTitles } from './useLookups';
import { ValueLink } from './ValueLink';

/** A record: its fields, its product lines with the stock they name, its state, its history and the transitions this user may take now. */
export function OperationDetail() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const toast = useToast();
  const { registry, lang, settings } = useMasterData();
  const { view, ops, warehouse, warehouseName } = useOperation();
  const { workflow, entity } = view;
  const [answer, setAnswer] = useState<OperationAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<AllowedTransition | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    setError(null);
    ops.get(workflow.name, id).then((a) => live && setAnswer(a), (e: unknown) => live && setError(errorText(e, t)));
    return () => { live = false; };
  }, [ops, workflow.name, id, warehouseName, version, t]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  const record = answer?.record;
  const fields = useMemo(() => formOf(registry, entity)?.fields ?? [], [registry, entity]);
  const specs = useMemo(() => columnsOf(registry, entity, lang).filter((c) => !c.sync && c.path !== workflow.stateField), [registry, entity, lang, workflow.stateField]);
  // A record that is its own line (an IBC and its content) shows it only while it holds a lot.
  const lines = useMemo(() => (record ? linesOf(workflow.lines, record).filter((l) => workflow.lines!.field !== '.' || lineParts(workflow.lines!, l).material) : []), [record, workflow.lines]);
  // Stock is shown at the record's deposits the selected warehouse holds: the others' stock is theirs (the API narrows it too).
  const depositFields = useMemo(() => workflow.depositFields.filter((f) => record && typeof record[f] === 'string' && record[f]
    && (!warehouse || warehouse.warehouseList.some((w) => w.id === record[f]))), [workflow.depositFields, record, warehouse]);
  const stock = useLineStock(workflow.lines, lines, depositFields.map((f) => String(record?.[f])), version);
  const lineField = workflow.lines ? fieldAt(fields, workflow.lines.field) : undefined;
  const refTitles = useTitles(useMemo(() => referencedByRecord(record, fields), [record, fields]));

  if (error) return <div className="p-message p-message-error" role="alert" data-testid="detail-error">{error}</div>;
  if (!answer || !record) return <div aria-busy="true">{t('shell.loading')}</div>;
  const def = registry.entities[entity];
  // A record that is its own line names its line fields by their path in the record (`content.material`).
  const sub = (path: string): FieldDef | undefined => (workflow.lines?.field === '.' ? fieldAt(fields, path) : lineField?.fields?.find((f) => f.id === path));
  // Who took a transition is a reference in the history's definition: shown by its title.
  const byRef = fieldAt(fields, 'history.by')?.ref;
  const isIbc = workflow.log?.entity === IBC_EVENT_LOG;
  const today = localToday();
  const age = isIbc ? ageYears(record[MANUFACTURE_FIELD], today) : null;
  const alertDays = alertDaysBefore(settings);
  const lineCols = workflow.lines ? [workflow.lines.material, workflow.lines.batch, workflow.lines.quantity, workflow.lines.unit, workflow.lines.rejected, workflow.lines.accepted].filter((x): x is string => !!x) : [];

  return (
    <section className="tm-op-detail" data-testid="operation-detail" data-id={id}>
      <div className="tm-op-detail__head">
        <Button icon="pi pi-arrow-left" text aria-label={t('operations.back')} onClick={() => navigate('/')} data-testid="detail-back" />
        <h2>{localize(def?.label, lang)} · {recordTitle(def, record, lang)}</h2>
        <StateBadge workflow={workflow} state={record[workflow.stateField]} />
      </div>

      <div className="tm-op-actions" data-testid="transitions">
        {isEditable(workflow, record) && view.create && (
          <Button label={t('masterdata.action.edit')} icon="pi pi-pencil" outlined onClick={() => navigate(`/${encodeURIComponent(id)}/edit`)} data-testid="detail-edit" />
        )}
        {answer.transitions.map((tr) => (
          <Button key={tr.id} label={localize(tr.label, lang)} data-testid="transition" data-transition={tr.id} onClick={() => setOpen(tr)} />
        ))}
      </div>

      <dl className="tm-op-fields">
        {specs.map((c) => {
          const text = cellText(c, record, lang, refTitles);
          if (!text) return null;
          const alert = isIbc && ADR_DATE_FIELDS.includes(c.path) ? dateAlert(getPath(record, c.path), today, alertDays) : null;
          return (
            <div key={c.path} data-field={c.path} data-alert={alert ?? undefined} className={alert ? `tm-op-alert tm-op-alert--${alert}` : undefined}>
              <dt>{c.label}</dt>
              <dd><ValueLink field={c.field} value={getPath(record, c.path)} text={text} />{alert && <> <small>{t(`operations.ibc.${alert}`, { count: alertDays })}</small></>}</dd>
            </div>
          );
        })}
        {age !== null && <div data-field="age" data-testid="ibc-age"><dt>{t('operations.ibc.age')}</dt><dd>{t('operations.ibc.years', { count: age })}</dd></div>}
      </dl>

      {workflow.declarable && <SyncPanel workflow={workflow.name} record={record} onChange={reload} />}

      {workflow.lines && lines.length > 0 && (
        <table className="tm-op-table" data-testid="detail-lines">
          <thead>
            <tr>
              {lineCols.map((p) => <th key={p}>{localize(sub(p)?.label ?? p, lang)}</th>)}
              {depositFields.map((f) => <th key={f}>{t('operations.stockAt', { deposit: refTitles?.company_division?.[String(record[f])] ?? String(record[f]) })}</th>)}
            </tr>
          </thead>
          <tbody>
            {lines.map((line, i) => {
              const parts = lineParts(workflow.lines!, line);
              const unit = workflow.lines!.unit ? cellText({ path: workflow.lines!.unit, label: '', field: sub(workflow.lines!.unit), sortable: false }, line, lang, refTitles) : '';
              return (
                <tr key={i} data-testid="detail-line">
                  {lineCols.map((p) => (
                    <td key={p} data-column={p}>
                      <ValueLink field={sub(p)} value={line[p]} isBatch={p === workflow.lines!.batch} text={cellText({ path: p, label: '', field: sub(p), sortable: false }, line, lang, refTitles)} />
                    </td>
                  ))}
                  {depositFields.map((f) => {
                    const q = stock.get(stockKey(parts.material, parts.batch, String(record[f])));
                    return <td key={f} data-testid="line-stock" data-deposit={String(record[f])}>{q === undefined ? '…' : `${q} ${unit}`.trim()}</td>;
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      <h3>{t('operations.history.title')}</h3>
      <table className="tm-op-table" data-testid="detail-history">
        <thead>
          <tr>
            <th>{t('operations.history.when')}</th><th>{t('operations.history.who')}</th><th>{t('operations.history.from')}</th>
            <th>{t('operations.history.to')}</th><th>{t('operations.history.comment')}</th>
          </tr>
        </thead>
        <tbody>
          {historyOf(record).map((h, i) => (
            <tr key={i} data-testid="history-entry" data-transition={h.transition}>
              <td>{historyWhen(h.at)}</td><td>{h.byName || (byRef && refTitles?.[byRef]?.[h.by]) || h.by}</td>
              <td><StateBadge workflow={workflow} state={h.from} /></td><td><StateBadge workflow={workflow} state={h.to} /></td>
              <td>{h.comment ?? ''}</td>
            </tr>
          ))}
          {historyOf(record).length === 0 && <tr><td colSpan={5}>{t('operations.history.empty')}</td></tr>}
        </tbody>
      </table>

      {isIbc && <EventsTimeline id={id} version={version} history={historyOf(record)} />}

      {open && (
        <TransitionDialog transition={open} record={record} onClose={() => setOpen(null)}
          onDone={(r) => {
            setOpen(null);
            setAnswer((a) => (a ? { ...a, record: r } : a));
            toast({ severity: 'success', summary: localize(open.label, lang), detail: t('operations.transition.done') });
            reload();
          }} />
      )}
    </section>
  );
}

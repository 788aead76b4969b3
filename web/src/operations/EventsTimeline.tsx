import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldAt, formOf, localize } from '../../../engine/src/index';
import { errorText } from '../api/errorText';
import { useMasterData } from '../masterdata/useMasterData';
import type { IbcEvent } from './api';
import { useOperation } from './context';
import { byNameOf } from './fleet';
import { historyWhen } from './model';
import type { HistoryEntry } from '../../../engine/src/workflow/types';
import { StateBadge } from './StateBadge';
import { referencedByRecord, useTitles } from './useLookups';

/** The log's fields not looked up by title: the IBC itself (the page's own record) and who took the step (named from the history). */
const NOT_LOOKED_UP = new Set(['record', 'by']);

/**
 * An IBC's event log (`ibc_event` rows, newest first): each transition's label, from → to,
 * when and by whom, the deposit it left the IBC at and its last customer; fetched again when
 * `version` changes (after a transition).
 */
export function EventsTimeline({ id, version, history }: { id: string; version: number; history: readonly HistoryEntry[] }) {
  const { t } = useTranslation();
  const { lang, registry } = useMasterData();
  const { ibc, view } = useOperation();
  const { workflow } = view;
  const [events, setEvents] = useState<IbcEvent[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setError(null);
    ibc.events(id).then((a) => live && setEvents(a.data), (e: unknown) => live && setError(errorText(e, t)));
    return () => { live = false; };
  }, [ibc, id, version, t]);

  // The log entity's references (deposit, customer) name records: shown by their titles.
  const fields = useMemo(() => (workflow.log ? formOf(registry, workflow.log.entity)?.fields ?? [] : []).filter((f) => !NOT_LOOKED_UP.has(f.id)), [registry, workflow.log]);
  const titles = useTitles(useMemo(() => {
    const all = new Map<string, Set<string>>();
    for (const e of events ?? []) for (const [entity, ids] of referencedByRecord(e as unknown as Record<string, unknown>, fields)) all.set(entity, new Set([...(all.get(entity) ?? []), ...ids]));
    return all;
  }, [events, fields]));
  const titleOf = (field: string, v: string | null | undefined) => { const ref = fieldAt(fields, field)?.ref; return v ? (ref && titles?.[ref]?.[v]) || v : ''; };
  const label = (tr: string) => { const d = workflow.transitions.find((x) => x.id === tr); return d ? localize(d.label, lang) : tr; };

  return (
    <section data-testid="ibc-events">
      <h3>{t('operations.events.title')}</h3>
      {error && <div className="p-message p-message-error" role="alert" data-testid="events-error">{error}</div>}
      {!error && !events && <div aria-busy="true">{t('shell.loading')}</div>}
      {events && events.length === 0 && <p>{t('operations.events.empty')}</p>}
      {events && events.length > 0 && (
        <ol className="tm-op-timeline">
          {events.map((e, i) => {
            const deposit = titleOf('deposit', e.deposit);
            const customer = titleOf('customer', e.customer);
            const by = byNameOf(history, e);
            return (
              <li key={e.id ?? i} data-testid="ibc-event" data-transition={e.transition}>
                <div className="tm-op-timeline__head">
                  <strong>{label(e.transition)}</strong>
                  <span className="tm-op-timeline__states"><StateBadge workflow={workflow} state={e.from} />{e.from && e.to ? ' → ' : ''}<StateBadge workflow={workflow} state={e.to} /></span>
                </div>
                <div className="tm-op-timeline__meta">
                  <span>{historyWhen(e.at)}</span>
                  {by && <span data-testid="event-by">{t('operations.events.by', { who: by })}</span>}
                  {deposit && <span data-testid="event-deposit">{t('operations.events.deposit', { deposit })}</span>}
                  {customer && <span data-testid="event-customer">{t('operations.events.customer', { customer })}</span>}
                  {typeof e.uses === 'number' && <span>{t('operations.events.uses', { count: e.uses })}</span>}
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

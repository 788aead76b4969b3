import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localize } from '../../../../engine/src/index';
import { actionsFor, effectiveState, listRefs, mapPoints, recordTitle, scanFindsRecord, stateLabel, type OfferedAction, type ValueView } from '../definitions';
import { ApiRequestError } from '../api';
import { ScanPanel, type ScanTarget } from '../scan/ScanPanel';
import { useMobile } from '../services';
import type { FeatureDef, MapTiles, MobileRecord, QueuedAction } from '../types';
import { ActionForm, type FormResult } from './ActionForm';

/** Leaflet (and its CSS) load only when a feature's list has a map: the first load stays small. */
const RecordsMap = lazy(() => import('./RecordsMap'));

/** No tiles: the markers on a blank background (offline, or a copy kept before the server sent its tiles). */
const NO_TILES: MapTiles = { tileUrl: '', attribution: '' };

type Mode = { name: 'browse' } | { name: 'create' } | { name: 'action'; action: OfferedAction };

/**
 * The one generic feature screen: everything comes from the feature's definition. Find a record
 * (scan when `scan`, pick from the kept list when `list`), or create one (when `create`); the
 * record's state (as the device believes it, queued actions laid over) offers the actions whose
 * transition may start from it; an action's form queues the action. A list with `map` is also
 * shown on a map (`tiles`: the deployment's, from the app answer), fed by the kept list offline.
 */
export function Feature({ feature, tiles = NO_TILES }: { feature: FeatureDef; tiles?: MapTiles }) {
  const m = useMobile();
  const { t } = useTranslation();
  const [list, setList] = useState<{ records: MobileRecord[]; at: number | null; fromCache: boolean } | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [selected, setSelected] = useState<MobileRecord | null>(null);
  const [mode, setMode] = useState<Mode>({ name: 'browse' });
  const [filter, setFilter] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [scanError, setScanError] = useState<string | null>(null);
  const [scanning, setScanning] = useState(false);

  const load = useCallback(async (fresh = true) => {
    if (!feature.list) return;
    setListError(null);
    try {
      setList(await m.records(feature, fresh));
    } catch (e) {
      setListError((e as Error).message);
      setList(await m.records(feature, false));
    }
  }, [m, feature]);
  useEffect(() => {
    void load();
  }, [load, m.online]);

  // The master data the list's references name (kept for offline by m.options): loaded once, the list re-rendered as each arrives.
  const [refs, setRefs] = useState<NonNullable<ValueView['refs']>>({});
  useEffect(() => {
    let live = true;
    setRefs({});
    for (const entity of listRefs(feature)) {
      void m.options(entity).then((o) => { if (live) setRefs((old) => ({ ...old, [entity]: o })); }, () => undefined);
    }
    return () => {
      live = false;
    };
  }, [m, feature]);
  const view = useMemo<ValueView>(() => ({ lang: m.lang, refs }), [m.lang, refs]);

  const mine = useMemo(() => m.actions.filter((a) => a.user === m.user && a.feature === feature.id), [m.actions, m.user, feature.id]);
  const fetchedAt = list?.at ?? 0;
  const records = useMemo(() => withOfflineCreates(list?.records ?? [], mine, feature), [list, mine, feature]);
  const titles = useMemo(() => new Map(records.map((r) => [r.id, recordTitle(feature, r, view)])), [records, feature, view]);
  // The search finds a record by its stored values and by what its row reads (a deposit's name, a state's label).
  const shown = useMemo(() => records.filter((r) => {
    if (!filter) return true;
    const rt = titles.get(r.id);
    return `${JSON.stringify(Object.values(r))} ${rt?.title} ${rt?.subtitle}`.toLowerCase().includes(filter.toLowerCase());
  }), [records, titles, filter]);
  const located = useMemo(() => mapPoints(feature, shown), [feature, shown]);
  const pick = useCallback((r: MobileRecord) => { setSelected(r); setNotice(null); window.scrollTo(0, 0); }, []);
  const onMarker = useCallback((id: string) => { const r = shown.find((x) => x.id === id); if (r) pick(r); }, [shown, pick]);

  const onScan = useCallback(async (target: ScanTarget) => {
    setScanError(null);
    // The ibc workflow's records are the IBCs: the scanned one is the record. A feature over another
    // workflow (deliveries, batches, requests) narrows its list to the records naming the IBC.
    const own = scanFindsRecord(feature);
    if (!own && 'serial' in target) {
      setFilter(target.serial);
      return;
    }
    setScanning(true);
    try {
      const found = await m.lookup(target);
      if (!found) setScanError(t('feature.notFoundOffline', { serial: 'serial' in target ? target.serial : target.nfc }));
      else if (own) {
        setSelected(found);
        setMode({ name: 'browse' });
      } else setFilter(String(found.serial_number ?? found.id));
    } catch (e) {
      setScanError(e instanceof ApiRequestError ? e.message : String(e));
    } finally {
      setScanning(false);
    }
  }, [m, t, feature]);

  const queue = async (kind: 'create' | 'transition', recordId: string, title: string, r: FormResult, transition?: string) => {
    await m.enqueue({ feature: feature.id, workflow: feature.workflow, recordId, kind, title, ...(transition ? { transition } : {}), fields: r.fields, ...(r.comment ? { comment: r.comment } : {}) });
    setNotice(m.online ? t('feature.sent') : t('feature.queued'));
    setMode({ name: 'browse' });
  };

  const selectedState = selected ? effectiveState(selected, mine, feature, fetchedAt) : null;
  const offered = selected ? actionsFor(feature, selectedState, m.lang) : [];
  const selectedPending = selected ? mine.some((a) => a.recordId === selected.id && a.status === 'pending') : false;
  const title = selected ? recordTitle(feature, selected, view) : null;

  return (
    <section className="stack" aria-labelledby="feature-heading" data-testid="feature-screen" data-feature={feature.id}>
      <h2 id="feature-heading">{localize(feature.label, m.lang)}</h2>
      {feature.hint ? <p className="muted">{localize(feature.hint, m.lang)}</p> : null}
      {notice ? <p className="banner ok" role="status" data-testid="queued-notice">{notice}</p> : null}

      {mode.name === 'create' && feature.create ? (
        <ActionForm feature={feature} heading={t('feature.newHeading')} fields={feature.create.fields} comment="none"
          onCancel={() => setMode({ name: 'browse' })}
          onSubmit={(r) => void queue('create', crypto.randomUUID(), t('queue.create'), r)} />
      ) : null}

      {mode.name === 'action' && selected && title ? (
        <ActionForm feature={feature} heading={`${mode.action.label} · ${title.title}`} fields={mode.action.fields} comment={mode.action.comment} required={mode.action.required}
          onCancel={() => setMode({ name: 'browse' })}
          onSubmit={(r) => void queue('transition', selected.id, title.title, r, mode.action.transition)} />
      ) : null}

      {mode.name === 'browse' ? (
        <>
          {feature.scan ? <ScanPanel onScan={(target) => void onScan(target)} busy={scanning} /> : null}
          {scanError ? <p className="error" role="alert" data-testid="scan-error">{scanError}</p> : null}

          {selected && title ? (
            <section className="card stack" aria-labelledby="record-heading" data-testid="record-card">
              <h3 id="record-heading">{title.title}</h3>
              {title.subtitle ? <p className="muted">{title.subtitle}</p> : null}
              {selectedState ? <p>{t('feature.state', { state: stateLabel(feature, selectedState, m.lang) })} {selectedPending ? <span className="pill pending">{t('feature.pending')}</span> : null}</p> : null}
              <h4>{t('feature.actions')}</h4>
              {offered.length ? (
                <div className="actions" role="group" aria-label={t('feature.actions')}>
                  {offered.map((a) => (
                    <button key={a.transition} type="button" className="btn primary" data-testid={`action-${a.transition}`} onClick={() => { setNotice(null); setMode({ name: 'action', action: a }); }}>{a.label}</button>
                  ))}
                </div>
              ) : <p className="muted">{selectedState ? t('feature.noActions') : t('feature.waitVerdict')}</p>}
            </section>
          ) : null}

          {feature.create ? (
            <button type="button" className="btn primary" data-testid="create-button" onClick={() => { setNotice(null); setMode({ name: 'create' }); }}>＋ {t('feature.new')}</button>
          ) : null}

          {feature.list ? (
            <section className="stack" aria-labelledby="records-heading">
              <div className="row">
                <h3 id="records-heading" className="grow">{t('feature.records')}</h3>
                <button type="button" className="btn small" disabled={!m.online} onClick={() => void load()}>{t('feature.refresh')}</button>
              </div>
              {list?.fromCache && list.at ? <p className="muted">{t('feature.copyFrom', { time: new Date(list.at).toLocaleString(m.lang) })}</p> : null}
              {listError ? <p className="error" role="alert">{listError}</p> : null}
              <input type="search" aria-label={t('feature.search')} placeholder={t('feature.search')} value={filter} onChange={(e) => setFilter(e.target.value)} />
              {located && list !== null ? (
                <>
                  <Suspense fallback={<p role="status">{t('app.loading')}</p>}>
                    <RecordsMap points={located.points} tiles={m.online ? tiles : NO_TILES} label={t('feature.map')} onSelect={onMarker} />
                  </Suspense>
                  {located.unplaced ? <p className="muted" data-testid="map-unplaced">{t('feature.unplaced', { count: located.unplaced })}</p> : null}
                </>
              ) : null}
              {list === null ? <p role="status">{t('app.loading')}</p> : shown.length === 0 ? <p className="muted">{t('feature.empty')}</p> : (
                <ul className="records" data-testid="record-list">
                  {shown.map((r) => {
                    const rt = titles.get(r.id)!;
                    const st = effectiveState(r, mine, feature, fetchedAt);
                    const pending = mine.some((a) => a.recordId === r.id && a.status === 'pending');
                    return (
                      <li key={r.id}>
                        <button type="button" className={`record ${selected?.id === r.id ? 'selected' : ''}`} aria-pressed={selected?.id === r.id} onClick={() => pick(r)}>
                          <span className="record-title">{rt.title}</span>
                          {rt.subtitle ? <span className="muted">{rt.subtitle}</span> : null}
                          <span className="record-state">{stateLabel(feature, st, m.lang)}{pending ? <span className="pill pending">{t('feature.pending')}</span> : null}</span>
                        </button>
                      </li>
                    );
                  })}
                </ul>
              )}
            </section>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

/** The kept list plus the records this device created and the server has not listed yet. */
function withOfflineCreates(records: MobileRecord[], actions: QueuedAction[], feature: FeatureDef): MobileRecord[] {
  const ids = new Set(records.map((r) => r.id));
  const created = actions
    .filter((a) => a.kind === 'create' && a.status !== 'rejected' && !ids.has(a.recordId))
    .map((a): MobileRecord => ({ ...(a.fields ?? {}), id: a.recordId, state: a.record?.state ?? feature.initial ?? null }));
  return [...created.reverse(), ...records];
}

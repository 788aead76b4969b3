import './trace.css';
import { useMemo } from 'react';
import { Route, Routes } from 'react-router-dom';
import { localize, type FeatureDef, type TraceFeatureDef } from '../../../engine/src/index';
import { useServices } from '../app/services';
import type { GoToPayload } from '../frame/messages';
import { useMasterData } from '../masterdata/useMasterData';
import { traceApi } from './api';
import { TraceContext } from './context';
import { DeepLink } from './DeepLink';
import { EventsView } from './EventsView';
import { HistoryView } from './HistoryView';
import { MapView } from './MapView';

export interface TraceScreenProps {
  feature: FeatureDef & { trace: TraceFeatureDef };
  warehouseName: string | null;
  goTo: (payload: GoToPayload) => void;
}

/**
 * The trace features of the frame (features.json `trace`, docs/trace.md): `map`
 * (/traceability-map: the graph, the map and the downloads), `events` (/events: the events
 * behind a trace, or every event) and `history` (/product-history: one lot's steps), all from
 * the trace routes, narrowed to the selected warehouse group by the server.
 */
export default function TraceScreen({ feature, warehouseName, goTo }: TraceScreenProps) {
  const { api } = useServices();
  const { lang } = useMasterData();
  const trace = useMemo(() => traceApi(api), [api]);
  const value = useMemo(() => ({ trace, warehouseName, goTo }), [trace, warehouseName, goTo]);
  const { view } = feature.trace;
  return (
    <TraceContext.Provider value={value}>
      <main className="tm-guest tm-trace-screen" data-testid="trace-screen" data-feature={feature.id} data-view={view}>
        <h1 className="tm-op__title">{localize(feature.name, lang)}</h1>
        <DeepLink />
        <Routes>
          <Route index element={view === 'map' ? <MapView /> : view === 'events' ? <EventsView /> : <HistoryView />} />
        </Routes>
      </main>
    </TraceContext.Provider>
  );
}

import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import L from 'leaflet';
import type { MapSettings } from '../masterdata/widgets/mapLogic';
import { MARKER_ICON } from '../masterdata/widgets/LocationMap';
import type { LocatedRecord } from './model';

/**
 * `points` as markers in `group` (its earlier markers removed), each made by `marker`, the map
 * fitted to them (a single point: centred at `zoom`). Shared with the mobile app's records map.
 */
export function placeMarkers<P extends { lat: number; lng: number }>(m: L.Map, group: L.LayerGroup, points: readonly P[], zoom: number, marker: (p: P) => L.Marker): void {
  group.clearLayers();
  for (const p of points) marker(p).addTo(group);
  if (points.length === 1) m.setView([points[0].lat, points[0].lng], zoom, { animate: false });
  else if (points.length > 1) m.fitBounds(L.latLngBounds(points.map((p) => [p.lat, p.lng] as [number, number])), { padding: [24, 24], animate: false });
}

export interface RecordsMapProps {
  points: LocatedRecord[];
  settings: MapSettings;
  label: string;
  /** A marker's popup text: the record's title and its state's label. */
  describe: (p: LocatedRecord) => { title: string; state: string; color: string };
  onOpen: (id: string) => void;
}

/**
 * The listed records on a Leaflet map (`map: true`): one marker per record with a place,
 * titled with its serial and state; its popup opens the record. The map fits the markers.
 * Loaded on its own (with Leaflet) only where a feature shows it. The marker ids are mirrored
 * in the container's `data-markers` for tests and tools.
 */
export default function RecordsMap({ points, settings, label, describe, onOpen }: RecordsMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const live = useRef({ describe, onOpen });
  live.current = { describe, onOpen };

  useEffect(() => {
    const m = L.map(box.current!, { center: [settings.center.lat, settings.center.lng], zoom: settings.zoom, maxZoom: settings.maxZoom });
    if (settings.tileUrl) L.tileLayer(settings.tileUrl, { attribution: settings.attribution, maxZoom: settings.maxZoom }).addTo(m);
    layer.current = L.layerGroup().addTo(m);
    map.current = m;
    return () => { m.remove(); map.current = null; layer.current = null; };
  }, [settings]);

  useEffect(() => {
    const m = map.current;
    const group = layer.current;
    if (!m || !group) return;
    placeMarkers(m, group, points, Math.max(settings.zoom, 10), (p) => {
      const d = live.current.describe(p);
      const popup = document.createElement('div');
      const link = popup.appendChild(document.createElement('a'));
      link.href = '#';
      link.textContent = d.title;
      link.dataset.testid = 'map-open';
      link.onclick = (e) => { e.preventDefault(); live.current.onOpen(p.id); };
      const badge = popup.appendChild(document.createElement('span'));
      badge.className = 'tm-op-badge tm-op-map__badge';
      badge.style.background = d.color;
      badge.textContent = d.state;
      return L.marker([p.lat, p.lng], { icon: MARKER_ICON, title: `${d.title} · ${d.state}`, alt: d.title }).bindPopup(popup);
    });
    if (box.current) box.current.dataset.markers = points.map((p) => p.id).join(',');
  }, [points, settings]);

  return <div ref={box} className="tm-md-map tm-op-map" role="region" aria-label={label} data-testid="records-map" data-tiles={settings.tileUrl ? 'on' : 'off'} />;
}

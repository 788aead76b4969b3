import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import L from 'leaflet';
import type { MapSettings } from '../masterdata/widgets/mapLogic';
import { MARKER_ICON } from '../masterdata/widgets/LocationMap';
import { quantityText, type TraceAnswer, type TraceNode } from './model';

export interface TraceMapProps {
  answer: TraceAnswer;
  settings: MapSettings;
  lang: string;
  label: string;
  /** What a place's popup lists: the trace's nodes there, each opening where a feature shows it. */
  onOpen: (node: TraceNode) => void;
}

/**
 * The trace on a Leaflet map: a marker per located place (our deposits, the customers' and the
 * suppliers') and a line per flow of goods between two places, labelled with the lot and the
 * quantity. Tiles come from `settings.map`; without a tile URL, or offline, the map is a plain
 * pane where the markers and lines still show. Place ids and the flow count are mirrored in the
 * container's `data-markers` and `data-flows` for tests and tools.
 */
export default function TraceMap({ answer, settings, lang, label, onOpen }: TraceMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const live = useRef({ onOpen });
  live.current = { onOpen };

  useEffect(() => {
    const m = L.map(box.current!, { center: [settings.center.lat, settings.center.lng], zoom: settings.zoom, maxZoom: settings.maxZoom });
    if (settings.tileUrl) L.tileLayer(settings.tileUrl, { attribution: settings.attribution, maxZoom: settings.maxZoom }).addTo(m);
    layer.current = L.layerGroup().addTo(m);
    map.current = m;
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => m.invalidateSize());
    resized?.observe(box.current!);
    return () => { resized?.disconnect(); m.remove(); map.current = null; layer.current = null; };
  }, [settings]);

  useEffect(() => {
    const m = map.current;
    const group = layer.current;
    if (!m || !group) return;
    group.clearLayers();
    const nodes = new Map(answer.nodes.map((n) => [n.id, n]));
    const places = new Map(answer.places.map((p) => [p.id, p]));
    for (const p of answer.places) {
      const popup = document.createElement('div');
      popup.className = 'tm-trace-popup';
      popup.appendChild(document.createElement('strong')).textContent = p.label;
      const list = popup.appendChild(document.createElement('ul'));
      for (const id of p.nodes) {
        const n = nodes.get(id);
        if (!n) continue;
        const link = list.appendChild(document.createElement('li')).appendChild(document.createElement('a'));
        link.href = '#';
        link.textContent = n.label;
        link.dataset.testid = 'trace-map-node';
        link.onclick = (e) => { e.preventDefault(); live.current.onOpen(n); };
      }
      const marker = p.kind === 'deposit'
        ? L.marker([p.location.lat, p.location.lng], { icon: MARKER_ICON, title: p.label, alt: p.label })
        : L.circleMarker([p.location.lat, p.location.lng], { radius: 8, color: '#7c3aed', fillOpacity: 0.6 });
      marker.bindPopup(popup).bindTooltip(p.label).addTo(group);
    }
    // One line per pair of places, listing what went along it.
    const lines = new Map<string, { from: L.LatLngExpression; to: L.LatLngExpression; text: string[] }>();
    for (const f of answer.flows) {
      const a = places.get(f.from);
      const b = places.get(f.to);
      if (!a || !b) continue;
      const key = `${f.from}>${f.to}`;
      const line = lines.get(key) ?? { from: [a.location.lat, a.location.lng], to: [b.location.lat, b.location.lng], text: [] };
      line.text.push(`${f.lot}: ${quantityText(f, lang)}`);
      lines.set(key, line);
    }
    for (const l of lines.values()) {
      L.polyline([l.from, l.to], { color: '#2563eb', weight: 3, opacity: 0.75, dashArray: '6 4' }).bindTooltip(l.text.join('<br/>')).addTo(group);
      L.circleMarker(l.to, { radius: 3, color: '#2563eb', fillOpacity: 1 }).addTo(group);
    }
    const points = answer.places.map((p) => [p.location.lat, p.location.lng] as [number, number]);
    if (points.length === 1) m.setView(points[0], Math.max(settings.zoom, 10), { animate: false });
    else if (points.length > 1) m.fitBounds(L.latLngBounds(points), { padding: [30, 30], animate: false });
    if (box.current) {
      box.current.dataset.markers = answer.places.map((p) => p.id).join(',');
      box.current.dataset.flows = String(lines.size);
    }
  }, [answer, settings, lang]);

  return <div ref={box} className="tm-md-map tm-trace-map" role="region" aria-label={label} data-testid="trace-map" data-tiles={settings.tileUrl ? 'on' : 'off'} />;
}

import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import L from 'leaflet';
import iconUrl from 'leaflet/dist/images/marker-icon.png';
import iconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import shadowUrl from 'leaflet/dist/images/marker-shadow.png';
import { markerAt, PLACE_ZOOM, storedPoint, type MapSettings } from './mapLogic';

// The bundled marker images (Leaflet's own guess of their path fails under a bundler).
export const MARKER_ICON = L.icon({ iconUrl, iconRetinaUrl, shadowUrl, iconSize: [25, 41], iconAnchor: [12, 41], popupAnchor: [1, -34], shadowSize: [41, 41] });

export interface LocationMapProps {
  lat?: number;
  lng?: number;
  settings: MapSettings;
  readOnly: boolean;
  /** A marker dragged or a point clicked: the coordinates to store. */
  onMove: (lat: number, lng: number) => void;
  label: string;
  markerLabel: string;
}

/**
 * A Leaflet map with one draggable marker bound to a location's coordinates. Loaded on its
 * own (with Leaflet) only when a form shows a location. Without a tile URL, or offline, it
 * is a plain pane where the marker still moves. The marker's position is mirrored in the
 * container's `data-marker` ("lat,lng", empty without a marker) for tests and tools.
 */
export default function LocationMap({ lat, lng, settings, readOnly, onMove, label, markerLabel }: LocationMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const marker = useRef<L.Marker | null>(null);
  const live = useRef({ onMove, readOnly });
  live.current = { onMove, readOnly };
  const pos = markerAt(lat, lng);

  const mirror = () => {
    const p = marker.current?.getLatLng();
    if (box.current) box.current.dataset.marker = p ? `${p.lat},${p.lng}` : '';
  };
  const move = (p: L.LatLng) => {
    const s = storedPoint(p.lat, p.lng);
    live.current.onMove(s.lat, s.lng);
  };

  useEffect(() => {
    const el = box.current!;
    const start = markerAt(lat, lng);
    const m = L.map(el, { center: start ?? [settings.center.lat, settings.center.lng], zoom: start ? Math.max(settings.zoom, PLACE_ZOOM) : settings.zoom, maxZoom: settings.maxZoom });
    if (settings.tileUrl) L.tileLayer(settings.tileUrl, { attribution: settings.attribution, maxZoom: settings.maxZoom }).addTo(m);
    m.on('click', (e: L.LeafletMouseEvent) => { if (!live.current.readOnly) move(e.latlng); });
    // Leaflet measures its box once; a form that lays out later (a section opening) resizes it.
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => m.invalidateSize());
    resized?.observe(el);
    map.current = m;
    return () => {
      resized?.disconnect();
      m.remove();
      map.current = null;
      marker.current = null;
    };
    // The map is built once per settings; the coordinates follow in the effect below.
  }, [settings]);

  const [pLat, pLng] = pos ?? [undefined, undefined];
  useEffect(() => {
    const m = map.current;
    if (!m) return;
    if (pLat === undefined || pLng === undefined) {
      marker.current?.remove();
      marker.current = null;
    } else if (!marker.current) {
      marker.current = L.marker([pLat, pLng], { icon: MARKER_ICON, draggable: !live.current.readOnly, title: markerLabel, alt: markerLabel, autoPan: true })
        .on('dragend', (e) => move((e.target as L.Marker).getLatLng()))
        .addTo(m);
    } else {
      marker.current.setLatLng([pLat, pLng]);
    }
    if (pLat !== undefined && pLng !== undefined && !m.getBounds().contains([pLat, pLng])) m.panTo([pLat, pLng], { animate: false });
    mirror();
  }, [pLat, pLng, markerLabel, settings]);

  useEffect(() => {
    const drag = marker.current?.dragging;
    if (drag) (readOnly ? drag.disable() : drag.enable());
  }, [readOnly, pLat, pLng]);

  return <div ref={box} className="tm-md-map" role="region" aria-label={label} data-testid="location-map" data-tiles={settings.tileUrl ? 'on' : 'off'} />;
}

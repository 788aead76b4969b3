import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import L from 'leaflet';
import type { Lang, MapData } from '../../../engine/src/index';
import type { MapSettings } from '../masterdata/widgets/mapLogic';
import { figure, labelText } from './model';

export interface MapWidgetProps {
  data: MapData;
  settings: MapSettings;
  lang: Lang;
  label: string;
}

/** A circle's radius in pixels: its area grows with the value, the largest at 22 px. */
export function radiusOf(value: number, max: number): number {
  return max > 0 ? 5 + 17 * Math.sqrt(Math.max(0, value) / max) : 5;
}

/**
 * A widget's map (Leaflet, loaded with the first map): one circle per place, sized by what was
 * measured there, its tooltip the place, the figure and its parts (a unit, a status); the map
 * fits the circles. Tiles come from the deployment's map settings; without them (offline) it is
 * a plain pane where the circles still show. The places' keys are mirrored in `data-points`.
 */
export default function MapWidget({ data, settings, lang, label }: MapWidgetProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);

  useEffect(() => {
    const el = box.current!;
    const m = L.map(el, { center: [settings.center.lat, settings.center.lng], zoom: settings.zoom, maxZoom: settings.maxZoom });
    if (settings.tileUrl) L.tileLayer(settings.tileUrl, { attribution: settings.attribution, maxZoom: settings.maxZoom }).addTo(m);
    layer.current = L.layerGroup().addTo(m);
    map.current = m;
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => m.invalidateSize());
    resized?.observe(el);
    return () => { resized?.disconnect(); m.remove(); map.current = null; layer.current = null; };
  }, [settings]);

  useEffect(() => {
    const m = map.current;
    const group = layer.current;
    const el = box.current!;
    if (!m || !group) return;
    group.clearLayers();
    const color = getComputedStyle(el).getPropertyValue('--tm-primary').trim() || '#10b981';
    const max = Math.max(0, ...data.points.map((p) => p.value));
    for (const p of data.points) {
      const tip = document.createElement('div');
      tip.appendChild(document.createElement('strong')).textContent = `${labelText(p.label, lang)}: ${figure(p.value, lang)}`;
      for (const s of p.series) tip.appendChild(document.createElement('div')).textContent = `${labelText(s.label, lang)}: ${figure(s.value, lang)}`;
      L.circleMarker([p.lat, p.lng], { radius: radiusOf(p.value, max), color, weight: 1.5, fillColor: color, fillOpacity: 0.45 }).bindTooltip(tip).addTo(group);
    }
    if (data.points.length === 1) m.setView([data.points[0].lat, data.points[0].lng], Math.max(settings.zoom, 8), { animate: false });
    else if (data.points.length > 1) m.fitBounds(L.latLngBounds(data.points.map((p) => [p.lat, p.lng] as [number, number])), { padding: [28, 28], animate: false });
    el.dataset.points = data.points.map((p) => p.key).join(',');
    el.dataset.painted = 'true';
  }, [data, lang, settings]);

  return <div ref={box} className="tm-dash-map" role="region" aria-label={label} data-testid="widget-map" data-tiles={settings.tileUrl ? 'on' : 'off'} />;
}

import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'react';
import L from 'leaflet';
import { MARKER_ICON } from '../../../src/masterdata/widgets/LocationMap';
import { MAP_DEFAULTS, PLACE_ZOOM } from '../../../src/masterdata/widgets/mapLogic';
import { placeMarkers } from '../../../src/operations/RecordsMap';
import type { MapPoint } from '../definitions';
import type { MapTiles } from '../types';

export interface RecordsMapProps {
  points: MapPoint[];
  /** The deployment's tiles; an empty `tileUrl` (or offline): a blank background, the markers still shown. */
  tiles: MapTiles;
  label: string;
  /** A marker tapped: the record to select. */
  onSelect: (id: string) => void;
}

/**
 * A feature's listed records on a Leaflet map (`list.map`): one marker per record with a place,
 * its title in the marker's tooltip; tapping a marker selects the record. The map fits the
 * markers. Loaded on its own, with Leaflet and its CSS, only where a feature shows a map. The
 * markers' record ids are mirrored in the container's `data-markers` for tests and tools.
 */
export default function RecordsMap({ points, tiles, label, onSelect }: RecordsMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const select = useRef(onSelect);
  select.current = onSelect;
  const { tileUrl, attribution } = tiles;

  useEffect(() => {
    const m = L.map(box.current!, { center: [MAP_DEFAULTS.center.lat, MAP_DEFAULTS.center.lng], zoom: MAP_DEFAULTS.zoom, maxZoom: MAP_DEFAULTS.maxZoom });
    if (tileUrl) L.tileLayer(tileUrl, { attribution, maxZoom: MAP_DEFAULTS.maxZoom }).addTo(m);
    layer.current = L.layerGroup().addTo(m);
    map.current = m;
    return () => { m.remove(); map.current = null; layer.current = null; };
  }, [tileUrl, attribution]);

  useEffect(() => {
    const m = map.current;
    const group = layer.current;
    if (!m || !group) return;
    placeMarkers(m, group, points, PLACE_ZOOM, (p) => L.marker([p.lat, p.lng], { icon: MARKER_ICON, title: p.title, alt: p.title })
      .bindTooltip(p.title)
      .on('click', () => select.current(p.id)));
    if (box.current) box.current.dataset.markers = points.map((p) => p.id).join(',');
  }, [points, tileUrl, attribution]);

  return <div ref={box} className="records-map" role="region" aria-label={label} data-testid="records-map" data-tiles={tileUrl ? 'on' : 'off'} />;
}

/**
 * The map under a location field, without Leaflet: the deployment's map settings and the
 * coordinates a marker may stand on. LocationMap.tsx (loaded only when a form shows a map)
 * does the drawing.
 */
import type { DeploymentSettings } from '../../../../engine/src/index';
export interface MapSettings {
  /** Tile URL template (`https://…/{z}/{x}/{y}.png`); empty: no tiles, the map is a plain pane. */
  tileUrl: string;
  attribution: string;
  maxZoom: number;
  /** Where the map opens when the record has no coordinates yet, and at what zoom. */
  center: { lat: number; lng: number };
  zoom: number;
}

/** Without a `map` setting: no tiles (nothing is fetched from a tile server), the whole world. */
export const MAP_DEFAULTS: MapSettings = { tileUrl: '', attribution: '', maxZoom: 19, center: { lat: 0, lng: 0 }, zoom: 2 };

/** The zoom a map opens at on a record that has a place. */
export const PLACE_ZOOM = 13;

/** `settings.map` of schemas/deployment.json (checked by its meta-schema), with the defaults filled in. */
export function mapSettings(settings: Pick<DeploymentSettings, 'map'>): MapSettings {
  const m = settings.map ?? {};
  return { ...MAP_DEFAULTS, ...m, center: { ...MAP_DEFAULTS.center, ...m.center } };
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Where the marker stands: both coordinates present and on the globe, else nowhere. */
export function markerAt(lat: unknown, lng: unknown): [number, number] | null {
  return isNum(lat) && isNum(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? [lat, lng] : null;
}

/** A point picked on the map as stored: 7 decimals (about a centimetre), longitude wrapped into [-180, 180]. */
export function storedPoint(lat: number, lng: number): { lat: number; lng: number } {
  const wrapped = lng >= -180 && lng <= 180 ? lng : ((((lng + 180) % 360) + 360) % 360) - 180;
  return { lat: Number(Math.max(-90, Math.min(90, lat)).toFixed(7)), lng: Number(wrapped.toFixed(7)) };
}

/**
 * A typed coordinate: a number (a decimal comma is taken as a point), `undefined` when the
 * input is empty, `null` while it is not a number yet (`-`, `-3.`, `abc`).
 */
export function parseCoordinate(text: string): number | undefined | null {
  const t = text.trim().replace(',', '.');
  if (t === '') return undefined;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requireDefinitions } from '../../../../definitions/read';
import { mountRoot } from '../domTesting';
import LocationMap, { type LocationMapProps } from './LocationMap';
import { MAP_DEFAULTS, mapSettings, markerAt, parseCoordinate, storedPoint, type MapSettings } from './mapLogic';

describe('map settings and coordinates', () => {
  it("read the deployment's tile URL, and fetch no tiles when the setting is absent", () => {
    const deployed = mapSettings(requireDefinitions(process.cwd()).deployment.settings);
    expect(deployed.tileUrl).toMatch(/\{z\}.*\{x\}.*\{y\}/);
    expect(deployed.attribution).not.toBe('');
    expect(mapSettings({})).toEqual(MAP_DEFAULTS);
    expect(MAP_DEFAULTS.tileUrl).toBe('');
    expect(mapSettings({ map: { tileUrl: '', center: { lat: 1 } } }).center).toEqual({ lat: 1, lng: 0 });
  });

  it('place a marker only on both coordinates, on the globe', () => {
    expect(markerAt(-34.6, -58.4)).toEqual([-34.6, -58.4]);
    expect(markerAt(0, 0)).toEqual([0, 0]);
    expect(markerAt(-34.6, undefined)).toBeNull();
    expect(markerAt(91, 0)).toBeNull();
    expect(markerAt('-34', 10)).toBeNull();
  });

  it('read a typed coordinate as a number once it is one, a decimal comma included', () => {
    expect(parseCoordinate('-34.6037')).toBe(-34.6037);
    expect(parseCoordinate(' -58,38 ')).toBe(-58.38);
    expect(parseCoordinate('.5')).toBe(0.5);
    expect(parseCoordinate('')).toBeUndefined();
    for (const partial of ['-', '-3.', 'abc', '1e5', '--3']) expect(parseCoordinate(partial), partial).toBe(partial === '-3.' ? -3 : null);
  });

  it('store a picked point with 7 decimals and the longitude wrapped onto the globe', () => {
    expect(storedPoint(-34.603722123, -58.381592456)).toEqual({ lat: -34.6037221, lng: -58.3815925 });
    expect(storedPoint(10, 190)).toEqual({ lat: 10, lng: -170 });
    expect(storedPoint(95, -190)).toEqual({ lat: 90, lng: 170 });
  });
});

describe('LocationMap (Leaflet)', () => {
  let mounted: ReturnType<typeof mountRoot>;
  const container = () => mounted.container;
  const tiles: MapSettings = { ...MAP_DEFAULTS, tileUrl: 'https://tiles.test/{z}/{x}/{y}.png', attribution: 'Test tiles', center: { lat: -34.6, lng: -64.2 }, zoom: 4 };
  const base = (over: Partial<LocationMapProps> = {}): LocationMapProps => ({
    settings: MAP_DEFAULTS, readOnly: false, onMove: () => undefined, label: 'Map of Location', markerLabel: 'Place marker', ...over,
  });
  const render = (p: LocationMapProps) => mounted.render(<LocationMap {...p} />);
  const box = () => container().querySelector<HTMLElement>('[data-testid=location-map]')!;

  beforeEach(() => { mounted = mountRoot(); });
  afterEach(() => mounted.unmount());

  it('renders a map without tiles when no tile URL is set, and the marker follows typed coordinates', () => {
    render(base());
    expect(box().classList.contains('leaflet-container')).toBe(true);
    expect(box().dataset.tiles).toBe('off');
    expect(container().querySelector('.leaflet-tile-container, .leaflet-layer')).toBeNull();
    expect(box().dataset.marker).toBe('');
    expect(container().querySelector('.leaflet-marker-icon')).toBeNull();
    render(base({ lat: -34.6, lng: -58.4 }));
    expect(box().dataset.marker).toBe('-34.6,-58.4');
    expect(container().querySelector('.leaflet-marker-icon')?.getAttribute('title')).toBe('Place marker');
    render(base({ lat: -31.4, lng: -64.2 }));
    expect(box().dataset.marker).toBe('-31.4,-64.2');
    expect(container().querySelectorAll('.leaflet-marker-icon')).toHaveLength(1);
    render(base({ lat: -31.4 }));
    expect(box().dataset.marker).toBe('');
    expect(container().querySelector('.leaflet-marker-icon')).toBeNull();
  });

  it('draws the tile layer from the URL template with its attribution', () => {
    render(base({ settings: tiles }));
    expect(box().dataset.tiles).toBe('on');
    expect(container().querySelector('.leaflet-layer')).not.toBeNull();
    expect(container().querySelector('.leaflet-control-attribution')?.textContent).toContain('Test tiles');
  });

  it('places the marker where the map is clicked, unless read-only', () => {
    const onMove = vi.fn();
    render(base({ settings: tiles, onMove, readOnly: true }));
    const click = () => act(() => { box().dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 0, clientY: 0 })); });
    click();
    expect(onMove).not.toHaveBeenCalled();
    render(base({ settings: tiles, onMove }));
    click();
    expect(onMove).toHaveBeenCalledTimes(1);
    const [lat, lng] = onMove.mock.calls[0] as [number, number];
    expect(Number.isFinite(lat) && Number.isFinite(lng)).toBe(true);
  });
});

import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import type { FieldProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { InputText } from 'primereact/inputtext';
import { useMasterData } from '../useMasterData';
import { FieldLabel } from './FieldLabel';
import { mapSettings, parseCoordinate } from './mapLogic';

// Leaflet and its styles load only when a form shows a location, never with the sign-in page.
const LocationMap = lazy(() => import('./LocationMap'));

type LatLng = { lat?: number; lng?: number };

/**
 * One coordinate as typed: the text stays as the user writes it (`-`, `-34.`), the number
 * reaches the form once it is one; a value set from outside (the marker) replaces the text.
 */
function CoordinateInput({ id, value, label, disabled, onValue }: { id: string; value?: number; label: string; disabled: boolean; onValue: (n: number | undefined) => void }) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  useEffect(() => {
    const typed = parseCoordinate(text);
    if (typed !== value && !(typed === null && value === undefined)) setText(value === undefined ? '' : String(value));
    // Only a change of the value from outside rewrites the text.
  }, [value]);
  const typed = parseCoordinate(text);
  return (
    <InputText id={id} value={text} disabled={disabled} inputMode="decimal" autoComplete="off" placeholder={label} aria-label={label} invalid={typed === null}
      onChange={(e) => {
        setText(e.target.value);
        const n = parseCoordinate(e.target.value);
        if (n !== null && n !== value) onValue(n);
      }} />
  );
}

/**
 * A map marker's coordinates: latitude and longitude inputs, always typeable, and a Leaflet
 * map whose marker follows them, can be dragged, or placed by a click (tiles from the
 * deployment's `map.tileUrl`; none when it is empty).
 */
export function LocationField(props: FieldProps) {
  const { t } = useTranslation();
  const { settings } = useMasterData();
  const map = useMemo(() => mapSettings(settings), [settings]);
  const v = (props.formData ?? {}) as LatLng;
  const commit = (next: LatLng) =>
    props.onChange((next.lat === undefined && next.lng === undefined ? undefined : next) as never, props.fieldPathId.path, undefined, props.fieldPathId.$id);
  const set = (k: 'lat' | 'lng', n: number | undefined) => commit({ ...v, [k]: n });
  const ro = props.readonly === true || props.disabled === true;
  const id = props.fieldPathId.$id;
  const titleOf = (k: 'lat' | 'lng', fallback: string) => {
    const sub = props.schema.properties?.[k];
    return typeof sub === 'object' && typeof sub.title === 'string' ? sub.title : fallback;
  };
  const latLabel = titleOf('lat', 'Latitude');
  const lngLabel = titleOf('lng', 'Longitude');
  return (
    <div className="tm-md-location" data-testid="location-field">
      <FieldLabel props={props} htmlFor={`${id}_lat`} />
      <CoordinateInput id={`${id}_lat`} value={v.lat} label={latLabel} disabled={ro} onValue={(n) => set('lat', n)} />
      <CoordinateInput id={`${id}_lng`} value={v.lng} label={lngLabel} disabled={ro} onValue={(n) => set('lng', n)} />
      <Suspense fallback={<div className="tm-md-map" aria-busy="true" />}>
        <LocationMap lat={v.lat} lng={v.lng} settings={map} readOnly={ro} onMove={(lat, lng) => commit({ lat, lng })}
          label={t('masterdata.map.label', { field: props.schema.title ?? props.name })} markerLabel={t('masterdata.map.marker')} />
      </Suspense>
    </div>
  );
}

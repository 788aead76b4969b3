import type { FieldProps } from '@rjsf/utils';
import { FieldLabel } from './FieldLabel';
import { InputNumber } from 'primereact/inputnumber';

type LatLng = { lat?: number; lng?: number };

/** A map marker's coordinates, always typeable (a tile map may sit on top when a tile URL is set). */
export function LocationField(props: FieldProps) {
  const v = (props.formData ?? {}) as LatLng;
  const set = (k: 'lat' | 'lng', n: number | null) => {
    const next: LatLng = { ...v, [k]: n ?? undefined };
    props.onChange((next.lat === undefined && next.lng === undefined ? undefined : next) as never, props.fieldPathId.path, undefined, props.fieldPathId.$id);
  };
  const ro = props.readonly || props.disabled;
  const id = props.fieldPathId.$id;
  return (
    <div className="tm-md-location" data-testid="location-field">
      <FieldLabel props={props} htmlFor={`${id}_lat`} />
      <span className="p-float-label"><InputNumber inputId={`${id}_lat`} value={v.lat ?? null} onChange={(e) => set('lat', e.value)} min={-90} max={90} minFractionDigits={0} maxFractionDigits={7} disabled={ro} placeholder="Latitude" aria-label="Latitude" /></span>
      <span className="p-float-label"><InputNumber inputId={`${id}_lng`} value={v.lng ?? null} onChange={(e) => set('lng', e.value)} min={-180} max={180} minFractionDigits={0} maxFractionDigits={7} disabled={ro} placeholder="Longitude" aria-label="Longitude" /></span>
    </div>
  );
}

/**
 * How each widget key of the definitions is mounted, from the engine's one list
 * (engine/src/fields/widgets.ts): object- or multi-typed values need an RJSF *field*,
 * scalars a *widget*; `object`, `address` and `list` keep RJSF's own object and array
 * layouts. The components live in ./registry.ts; this table stays free of React for tests.
 */
import { WIDGET_KEYS, WIDGET_MOUNTS, type WidgetMount } from '../../../../engine/src/fields/widgets';

const mounted = (mount: WidgetMount): ReadonlySet<string> => new Set(WIDGET_KEYS.filter((k) => WIDGET_MOUNTS[k] === mount));

export const FIELD_WIDGETS = mounted('field');

export const LAYOUT_WIDGETS = mounted('layout');

export const SCALAR_WIDGETS = mounted('scalar');

export function isRegisteredWidget(key: string): boolean {
  return SCALAR_WIDGETS.has(key) || FIELD_WIDGETS.has(key);
}

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

/**
 * Lists of lines drawn by a web field instead of RJSF's array layout, by the entity a line's
 * reference names: lines naming IBCs are added by scanning a serial number or NFC tag.
 */
export const LINE_LIST_FIELDS: Readonly<Record<string, string>> = { ibc_container: 'containers' };

/** The line-list field for a list whose item uiSchema has a reference registered above, else undefined. */
export function lineListField(itemsUi: unknown): string | undefined {
  if (typeof itemsUi !== 'object' || itemsUi === null) return undefined;
  for (const [k, v] of Object.entries(itemsUi as Record<string, unknown>)) {
    if (k.startsWith('ui:') || typeof v !== 'object' || v === null) continue;
    const ref = ((v as Record<string, unknown>)['ui:options'] as Record<string, unknown> | undefined)?.ref;
    if (typeof ref === 'string' && LINE_LIST_FIELDS[ref]) return LINE_LIST_FIELDS[ref];
  }
  return undefined;
}

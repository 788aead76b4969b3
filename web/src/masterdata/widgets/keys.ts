/**
 * The widget keys of the field definitions (`ui:options.widget`, engine defaultWidget) and
 * how each is mounted: object- or multi-typed values need an RJSF *field*, scalars a *widget*;
 * `object`, `address` and `list` keep RJSF's own object and array layouts. The components
 * live in ./registry.ts; this table stays free of React for tests.
 */
export const FIELD_WIDGETS: ReadonlySet<string> = new Set(['picker', 'autocomplete', 'location', 'upload']);

export const LAYOUT_WIDGETS: ReadonlySet<string> = new Set(['object', 'address', 'list']);

export const SCALAR_WIDGETS: ReadonlySet<string> = new Set([
  'text', 'textarea', 'email', 'phone', 'color', 'select', 'checkbox', 'date', 'datetime', 'number', 'percent', 'hidden',
]);

export function isRegisteredWidget(key: string): boolean {
  return SCALAR_WIDGETS.has(key) || FIELD_WIDGETS.has(key);
}

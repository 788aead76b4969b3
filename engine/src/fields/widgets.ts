/**
 * Every widget key a field definition may name (and the defaults the registry fills in),
 * with how the web mounts it: object- or multi-typed values need an RJSF *field*, scalars a
 * *widget*; layouts keep RJSF's own object and array layouts. The meta-schema's enum, the
 * web's components and the defaults are all checked against this one list.
 */
export const WIDGET_MOUNTS = {
  text: 'scalar',
  textarea: 'scalar',
  email: 'scalar',
  phone: 'scalar',
  color: 'scalar',
  select: 'scalar',
  checkbox: 'scalar',
  date: 'scalar',
  datetime: 'scalar',
  number: 'scalar',
  percent: 'scalar',
  hidden: 'scalar',
  picker: 'field',
  autocomplete: 'field',
  location: 'field',
  upload: 'field',
  /** A lot number picked from the stock of the line's material at the record's deposit (operation forms). */
  batch: 'field',
  object: 'layout',
  address: 'layout',
  list: 'layout',
} as const;

export type WidgetKey = keyof typeof WIDGET_MOUNTS;
export type WidgetMount = (typeof WIDGET_MOUNTS)[WidgetKey];

export const WIDGET_KEYS = Object.keys(WIDGET_MOUNTS) as readonly WidgetKey[];

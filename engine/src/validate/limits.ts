import type { FieldDef } from '../types';

/** Characters a text field holds when its definition sets no `maxLength`. */
export const DEFAULT_MAX_LENGTH = 1_000;
/** A textarea holds notes and descriptions, so its default is larger. */
export const DEFAULT_TEXTAREA_MAX_LENGTH = 10_000;
/** Entries a `multiple` field holds when its definition sets no `maxItems`. */
export const DEFAULT_MAX_ITEMS = 1_000;

/**
 * The most characters a text value of this field may have: its definition's, else a default,
 * so that no text field is unbounded (a 900 KB name once went into the store unchecked).
 */
export function maxLengthOf(f: FieldDef): number {
  return f.maxLength ?? (f.widget === 'textarea' ? DEFAULT_TEXTAREA_MAX_LENGTH : DEFAULT_MAX_LENGTH);
}

/** The most entries a `multiple` field may hold: its definition's, else the default. */
export function maxItemsOf(f: FieldDef): number {
  return f.maxItems ?? DEFAULT_MAX_ITEMS;
}

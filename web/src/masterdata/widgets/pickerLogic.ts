/** When a reference picker searches: after `minChars` (3; 2 for the global autocomplete widget). */
export function pickerMinChars(widget: string, settings: { picker: { minChars: number }; autocompleteMinChars: number }, own?: number): number {
  if (own !== undefined) return own;
  return widget === 'autocomplete' ? settings.autocompleteMinChars : settings.picker.minChars;
}

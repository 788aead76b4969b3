/** When a reference picker searches: after `minChars` (3; 2 for the global autocomplete widget). */
export function pickerMinChars(widget: string, settings: { picker: { minChars: number }; autocompleteMinChars: number }, own?: number): number {
  if (own !== undefined) return own;
  return widget === 'autocomplete' ? settings.autocompleteMinChars : settings.picker.minChars;
}

/** The id a reference value holds, whether stored as an id or as an embedded object. */
export function referenceId(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && 'id' in value) {
    const id = (value as { id: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  }
  return undefined;
}

/** The label a referenced record shows: its entity's title field, else its id. */
export function recordTitle(record: Record<string, unknown> | undefined, titleField: string | undefined): string {
  if (!record) return '';
  const v = titleField ? record[titleField] : undefined;
  return v === undefined || v === null || v === '' ? String(record.id ?? '') : String(v);
}

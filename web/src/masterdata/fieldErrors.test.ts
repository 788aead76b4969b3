import { describe, expect, it } from 'vitest';
import { FieldErrorStore } from './fieldErrors';

describe('FieldErrorStore', () => {
  it('groups messages by dotted path and notifies only when something changed', () => {
    const s = new FieldErrorStore();
    let calls = 0;
    s.subscribe(() => calls++);
    s.set([{ field: 'email', message: 'a' }, { field: 'input_materials.0.quantity', message: 'b' }, { field: 'email', message: 'c' }, { message: 'top' }]);
    expect(s.get('email')).toEqual(['a', 'c']);
    expect(s.get('input_materials.0.quantity')).toEqual(['b']);
    expect(calls).toBe(1);
    const before = s.get('email');
    s.set([{ field: 'email', message: 'a' }, { field: 'email', message: 'c' }]);
    expect(calls).toBe(2);
    expect(s.get('email')).toBe(before); // unchanged paths keep their array: their fields do not re-render
    expect(s.get('input_materials.0.quantity')).toBeUndefined();
    s.set([{ field: 'email', message: 'a' }, { field: 'email', message: 'c' }]);
    expect(calls).toBe(2);
  });
});

/**
 * Rows whose field names a compiled stage knows in advance ($project's fields, $group's
 * accumulators), built by a function made once per stage with one assignment per field.
 *
 * Why not `out[k] = v` in a loop: V8 turns an object that gets more than about a dozen fields
 * through computed keys into a hash table ("dictionary mode"), and then every later read of
 * every field of that row (the next stages, the export's cells) is a table lookup; a report's
 * twenty-field projection ran several times slower for it. Written as `o["name"] = v` (or as an
 * object literal) the same stores keep the row a plain fast object.
 *
 * The names are written as JSON string literals, so any field name is code-safe; the result is
 * the same object the loop would make: the same fields in the same order, values left
 * `undefined` absent (`omitUndefined`), `__proto__` assigned as the loop assigns it.
 */
type Rec = Record<string, unknown>;

export function objectBuilder(keys: readonly string[], options: { omitUndefined: boolean }): (values: readonly unknown[]) => Rec {
  const name = (k: string) => JSON.stringify(k);
  // A quoted `"__proto__": v` in a literal sets the prototype, as the assignment does.
  const body = options.omitUndefined
    ? `const o = {}; let v;\n${keys.map((k, i) => `v = a[${i}]; if (v !== undefined) o[${name(k)}] = v;`).join('\n')}\nreturn o;`
    : `return {${keys.map((k, i) => `${name(k)}: a[${i}]`).join(', ')}};`;
  return new Function('a', body) as (values: readonly unknown[]) => Rec;
}

/**
 * A field path's value through plain objects (`a.b.c`), or `other(doc, path)` as soon as the way
 * meets an array, a Date or a scalar (mingo's resolve maps over arrays). Made per path for the
 * same reason as objectBuilder: a closure shared by every path reads its fields through one
 * site that has seen every kind of row; each made function reads its own few.
 */
export function pathReader(path: string, other: (doc: Rec, path: string) => unknown): (doc: Rec) => unknown {
  const steps = path.split('.').map((p) => [
    'if (v === null || v === undefined) return undefined;',
    `if (typeof v !== 'object' || Array.isArray(v) || v instanceof Date) return other(doc, ${JSON.stringify(path)});`,
    `v = v[${JSON.stringify(p)}];`,
  ].join('\n'));
  return new Function('other', `return (doc) => {\nlet v = doc;\n${steps.join('\n')}\nreturn v;\n};`)(other) as (doc: Rec) => unknown;
}

/** `d[name]` as its own function (a `$project`'s kept field), for the same reason. */
export function fieldGetter(name: string): (doc: Rec) => unknown {
  return new Function('d', `return d[${JSON.stringify(name)}];`) as (doc: Rec) => unknown;
}

/** `d[name] = v` as its own function, for the same reason: a join sets the same field on row after row. */
export function fieldSetter(name: string): (doc: Rec, value: unknown) => void {
  return new Function('d', 'v', `d[${JSON.stringify(name)}] = v;`) as (doc: Rec, value: unknown) => void;
}

/**
 * A shallow copy of a row, as `{...doc}` makes it, whose fields a later stage can add to without
 * a hidden class of its own for each row. V8 gives a spread's copy a map no transition is kept
 * from: a join or `$addFields` adding a field to 136,204 unwound shipment lines made 136,204 maps,
 * and every read of those rows' fields (a `$group`'s, the export's cells) missed its cache.
 * Object.assign copies into a map of the shared tree. A `__proto__` field is the exception:
 * assign would set the prototype where the spread copies the field.
 */
export function rowCopy(doc: Rec): Rec {
  return Object.hasOwn(doc, '__proto__') ? { ...doc } : Object.assign({}, doc);
}

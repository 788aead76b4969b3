import {
  fieldAt, formOf, localize, toJsonSchema, type FieldDef, type JsonSchema, type Lang, type MobileFeatureDef, type Registry,
} from '../../../engine/src/index';

type Schema = JsonSchema & { properties?: Record<string, Schema>; items?: Schema };

/** A field's JSON Schema, titles in `lang`, each reference (nested ones too) naming its entity in `x-ref`. */
function fieldSchema(f: FieldDef, lang: Lang): Schema {
  const s = (toJsonSchema({ name: f.id, fields: [f] }, { lang }).properties as Record<string, Schema>)[f.id];
  const refs = (x: Schema, def: FieldDef) => {
    const inner = def.multiple && x.items ? x.items : x;
    if (def.type === 'reference' && def.ref) inner['x-ref'] = def.ref;
    for (const sub of def.fields ?? []) if (inner.properties?.[sub.id]) refs(inner.properties[sub.id], sub);
  };
  refs(s, f);
  return s;
}

/**
 * The JSON Schema of a feature's fields: the values it asks (its create's and its actions' fields)
 * and the fields its list shows (title and subtitle: the app renders each by its type, options and
 * `x-ref`; a form still asks only the fields its action names), nested as the record is:
 * `location.lat` is `properties.location.properties.lat`.
 */
export function featureFields(reg: Registry, feature: MobileFeatureDef, lang: Lang): Schema {
  const root: Schema = { type: 'object', properties: {} };
  if (!feature.workflow) return root;
  const fields = formOf(reg, reg.workflows[feature.workflow].entity)!.fields;
  const listed = feature.list ? [feature.list.title, ...(feature.list.subtitle ?? [])] : [];
  const paths = [...new Set([...(feature.create?.fields ?? []), ...feature.actions.flatMap((a) => a.fields), ...listed])];
  for (const path of paths) {
    const parts = path.split('.');
    let at = root;
    for (let i = 0; i < parts.length; i++) {
      const def = fieldAt(fields, parts.slice(0, i + 1).join('.'));
      if (!def) break;
      const props = (at.properties ??= {});
      if (i === parts.length - 1) props[parts[i]] = fieldSchema(def, lang);
      else at = props[parts[i]] ??= { type: 'object', title: localize(def.label, lang), properties: {} };
    }
  }
  return root;
}

/** A feature as the app gets it: as defined (its `list` with its `map` too), with its workflow's state field, initial state and state labels, the fields schema and each action's transition (label, from, to, required fields). */
export function featureAnswer(reg: Registry, feature: MobileFeatureDef, lang: Lang): Record<string, unknown> {
  const wf = feature.workflow ? reg.workflows[feature.workflow] : undefined;
  const transitions = feature.actions.map((a) => {
    const t = wf!.transitions.find((x) => x.id === a.transition)!;
    const requires = new Set(t.requires ?? []);
    return {
      transition: t.id, label: localize(t.label, lang), from: t.from, to: t.to ?? null, fields: a.fields,
      required: a.fields.filter((f) => requires.has(f)), comment: t.comment ?? 'optional',
    };
  });
  // What the app needs to act on a record offline: where its state is, the state a draft starts in, each state's label.
  const workflow = wf ? { stateField: wf.stateField, initial: wf.initial, states: Object.fromEntries(wf.states.map((s) => [s.id, s.label])) } : {};
  return { ...feature, ...workflow, fields: featureFields(reg, feature, lang), transitions };
}

/** The tiles of the app's maps (a feature whose list has `map`): the deployment's `settings.map`; an empty `tileUrl` draws no tiles. */
export function mapAnswer(reg: Registry): { tileUrl: string; attribution: string } {
  const m = reg.deployment.settings.map;
  return { tileUrl: m?.tileUrl ?? '', attribution: m?.attribution ?? '' };
}

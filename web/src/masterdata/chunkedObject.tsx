import type { ComponentType } from 'react';
import type { ObjectFieldTemplatePropertyType, ObjectFieldTemplateProps } from '@rjsf/utils';

/** About how many inputs a rendering block of a long form holds. */
export const CHUNK_SIZE = 12;

type Schema = { type?: unknown; properties?: Record<string, unknown>; items?: unknown };
const isSchema = (s: unknown): s is Schema => typeof s === 'object' && s !== null;

/** How many inputs a property shows, about: its leaves for an object, a few for a list. */
export function inputWeight(schema: unknown): number {
  if (!isSchema(schema)) return 1;
  if (schema.properties) return Math.max(1, Object.values(schema.properties).reduce<number>((n, s) => n + inputWeight(s), 0));
  return schema.type === 'array' ? 3 : 1;
}

/**
 * Groups an object's properties in blocks of about CHUNK_SIZE inputs (a section bigger than
 * that is a block of its own, chunked inside in turn). Each block is `.tm-md-chunk`
 * (content-visibility: auto), so the browser lays out and paints only the blocks on screen:
 * a keystroke in a 300-field form then costs what it costs in a short one. Never mutates.
 */
export function chunkProperties(properties: readonly ObjectFieldTemplatePropertyType[], schema?: Schema, size = CHUNK_SIZE): ObjectFieldTemplatePropertyType[] {
  const weights = properties.map((p) => (p.hidden ? 0 : inputWeight(schema?.properties?.[p.name])));
  if (weights.reduce((a, b) => a + b, 0) <= size) return [...properties];
  const out: ObjectFieldTemplatePropertyType[] = [];
  let group: ObjectFieldTemplatePropertyType[] = [];
  let weight = 0;
  const close = () => {
    if (group.length === 0) return;
    const key = `__chunk${out.length}`;
    // Until a block has been on screen once, it holds about the height of its inputs (5.5rem each).
    out.push({
      name: key,
      hidden: weight === 0,
      content: <div key={key} className="tm-md-chunk" style={{ containIntrinsicSize: `auto ${Math.max(1, weight) * 5.5}rem` }}>{group.map((p) => p.content)}</div>,
    });
    group = [];
    weight = 0;
  };
  properties.forEach((p, i) => {
    if (weight > 0 && weight + weights[i] > size) close();
    group.push(p);
    weight += weights[i];
  });
  close();
  return out;
}

/** A theme's object layout (`Base`) over chunked properties. */
export function chunkedObjectFieldTemplate(Base: ComponentType<ObjectFieldTemplateProps>): ComponentType<ObjectFieldTemplateProps> {
  function ChunkedObjectFieldTemplate(props: ObjectFieldTemplateProps) {
    return <Base {...props} properties={chunkProperties(props.properties, props.schema as Schema)} />;
  }
  return ChunkedObjectFieldTemplate;
}

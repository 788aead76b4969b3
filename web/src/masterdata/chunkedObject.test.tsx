// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import Form, { getDefaultRegistry } from '@rjsf/core';
import validator from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { CHUNK_SIZE, chunkedObjectFieldTemplate, chunkProperties, inputWeight } from './chunkedObject';
import { mountRoot } from './domTesting';

// The core theme's object layout stands in for PrimeReact's here (the same props, the same chunking).
const ChunkedObjectFieldTemplate = chunkedObjectFieldTemplate(getDefaultRegistry().templates.ObjectFieldTemplate);
const prop = (name: string, hidden = false) => ({ name, hidden, content: <input key={name} id={name} /> });

describe('long forms render in blocks', () => {
  it('groups fields in blocks of about CHUNK_SIZE inputs, in order, and leaves short objects alone', () => {
    const few = Array.from({ length: CHUNK_SIZE }, (_, i) => prop(`f${i}`));
    expect(chunkProperties(few)).toEqual(few);
    const many = Array.from({ length: 2 * CHUNK_SIZE + 3 }, (_, i) => prop(`f${i}`, i >= CHUNK_SIZE * 2));
    const blocks = chunkProperties(many);
    expect(blocks.map((b) => b.name)).toEqual(['__chunk0', '__chunk1']);
    // Hidden fields weigh nothing: they ride along with the block before them.
    expect((blocks[1].content.props as { children: unknown[] }).children).toHaveLength(CHUNK_SIZE + 3);
    expect(blocks.map((b) => b.hidden)).toEqual([false, false]);
    const allHidden = many.slice(0, CHUNK_SIZE + 1).map((p) => ({ ...p, hidden: true }));
    expect(chunkProperties(allHidden)).toEqual(allHidden);
    expect(many[0].content.key).toBe('f0'); // never mutated
  });

  it('weigh a section by its inputs: small sections share a block, a big one has its own', () => {
    const section = (n: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`x${i}`, { type: 'string' }])) });
    expect(inputWeight(section(5))).toBe(5);
    expect(inputWeight({ type: 'array', items: section(5) })).toBe(3);
    const schema = { type: 'object', properties: { a: { type: 'string' }, s1: section(4), s2: section(5), big: section(40), z: { type: 'string' } } };
    const blocks = chunkProperties(['a', 's1', 's2', 'big', 'z'].map((n) => prop(n)), schema);
    expect(blocks.map((b) => (b.content.props as { children: { key: string }[] }).children.map((c) => c.key))).toEqual([['a', 's1', 's2'], ['big'], ['z']]);
  });

  it("render a 300-field form's inputs inside .tm-md-chunk blocks, every input kept in order", () => {
    const properties = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${String(i).padStart(3, '0')}`, { type: 'string', title: `Field ${i}` }]));
    const schema = { type: 'object', properties } as RJSFSchema;
    const { container, render, unmount } = mountRoot();
    render(<Form schema={schema} validator={validator} templates={{ ObjectFieldTemplate: ChunkedObjectFieldTemplate }} />);
    const chunks = container.querySelectorAll('.tm-md-chunk');
    expect(chunks).toHaveLength(Math.ceil(300 / CHUNK_SIZE));
    expect(chunks[0].querySelectorAll('input')).toHaveLength(CHUNK_SIZE);
    expect([...container.querySelectorAll('input')].map((i) => i.id)).toEqual(Object.keys(properties).map((k) => `root_${k}`));
    unmount();
  });
});

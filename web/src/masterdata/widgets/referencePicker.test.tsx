// @vitest-environment happy-dom
import { act } from 'react';
import Form from '@rjsf/core';
import validator from '@rjsf/validator-ajv8';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildRouteTable, type Lang, type Registry } from '../../../../engine/src/index';
import { fixtureRegistry } from '../../../../engine/src/testing/fixtures';
import type { Services } from '../../app/services';
import { createI18n } from '../../i18n/i18n';
import type { ShellValue } from '../../shell/shellContext';
import { mountRoot } from '../domTesting';
import { ReferencePicker } from './ReferencePicker';
import { InShell } from '../InShell';

type Rec = Record<string, unknown>;
const DEBOUNCE_MS = 5;
const base = fixtureRegistry();
const registry: Registry = {
  ...base,
  deployment: { ...base.deployment, settings: { ...base.deployment.settings, picker: { ...base.deployment.settings.picker, debounceMs: DEBOUNCE_MS } } },
};
const shell = { registry, lang: 'en', routes: buildRouteTable(registry, 'en'), principal: { access: [], groups: [], selectedWarehouse: null }, allowed: [], menu: [] } as unknown as ShellValue;

const schema = { type: 'object', properties: { parent_company_id: { type: 'string', title: 'Parent company' } } } as RJSFSchema;
const uiSchema = { parent_company_id: { 'ui:field': 'picker', 'ui:options': { widget: 'picker', ref: 'company' } } } as UiSchema;

/** A server whose every answer waits until the test gives it (a slow network), by request path. */
function slowServer() {
  const waiting = new Map<string, (body: unknown) => void>();
  const api = { get: (path: string) => new Promise((resolve) => waiting.set(path, resolve)) };
  const answer = (path: string, body: unknown) => act(async () => {
    const resolve = waiting.get(path);
    if (!resolve) throw new Error(`no request for ${path}; waiting: ${[...waiting.keys()].join(', ')}`);
    waiting.delete(path);
    resolve(body);
    await new Promise((r) => setTimeout(r, 0));
  });
  return { services: { api, config: { deployment: { settings: {} } } } as unknown as Services, answer, asked: () => [...waiting.keys()] };
}
const listPath = (q: string) => `/api/v3/masterdata/company?q=${q}&pageSize=20&state=1`;
const page = (...names: string[]) => ({ data: names.map((n) => ({ id: n.toLowerCase(), company_name: n })), total: names.length });

let i18n: I18n;
beforeAll(async () => { i18n = await createI18n({ en: {} }, 'en'); });
const mounted: (() => void)[] = [];
afterEach(() => { while (mounted.length) mounted.pop()!(); });

/** The form with a picker; `show` draws it again in another language, as when the shell's language reaches the feature frame. */
function mountShown(services: Services, initial: Rec = {}) {
  const root = mountRoot();
  mounted.push(root.unmount);
  const show = (lang: Lang) => root.render(
    <InShell i18n={i18n} services={services} shell={{ ...shell, lang }}>
      <Form schema={schema} uiSchema={uiSchema} validator={validator} formData={initial} fields={{ picker: ReferencePicker }} />
    </InShell>,
  );
  show('en');
  return { container: root.container, show };
}
const mount = (services: Services, initial: Rec = {}) => mountShown(services, initial).container;

/** Types into the picker as a user (React listens to the native input event), then lets the debounce pass. */
async function type(container: HTMLElement, text: string) {
  const input = container.querySelector<HTMLInputElement>('input[role="combobox"]')!;
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await act(async () => { await new Promise((r) => setTimeout(r, DEBOUNCE_MS * 4)); });
}

const text = (c: HTMLElement) => c.querySelector<HTMLInputElement>('input[role="combobox"]')!.value;
const options = (c: HTMLElement) => [...c.querySelectorAll('[role="option"]')].map((o) => o.textContent);

describe('the reference picker', () => {
  it('keeps a search typed before the current record’s title arrives in an edit form', async () => {
    const server = slowServer();
    const container = mount(server.services, { parent_company_id: 'c1' });
    await type(container, 'acm');
    await server.answer('/api/v3/masterdata/company/c1', { id: 'c1', company_name: 'Old Parent' });
    expect(text(container)).toBe('acm');
  });

  it('keeps a search typed after the title was shown when the language changes', async () => {
    const server = slowServer();
    const { container, show } = mountShown(server.services, { parent_company_id: 'c1' });
    await server.answer('/api/v3/masterdata/company/c1', { id: 'c1', company_name: 'Old Parent' });
    await type(container, 'acm');
    await act(async () => show('es'));
    // Whether or not the title is asked again, what the user typed stays.
    if (server.asked().includes('/api/v3/masterdata/company/c1')) await server.answer('/api/v3/masterdata/company/c1', { id: 'c1', company_name: 'Old Parent' });
    expect(text(container)).toBe('acm');
  });

  it('shows the title of the current record when the user has not typed', async () => {
    const server = slowServer();
    const container = mount(server.services, { parent_company_id: 'c1' });
    await server.answer('/api/v3/masterdata/company/c1', { id: 'c1', company_name: 'Old Parent' });
    expect(text(container)).toBe('Old Parent');
  });

  it('searches the newer text while an older search runs, and shows only the newer one’s answer', async () => {
    const server = slowServer();
    const container = mount(server.services);
    await type(container, 'acm');
    await type(container, 'acme');
    expect(server.asked()).toEqual([listPath('acm'), listPath('acme')]);
    await server.answer(listPath('acme'), page('Acme Corp'));
    await server.answer(listPath('acm'), page('Acm Ltd', 'Acme Corp'));
    expect(options(container)).toEqual(['Acme Corp']);
  });
});

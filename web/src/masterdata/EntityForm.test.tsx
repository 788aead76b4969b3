// @vitest-environment happy-dom
import { act } from 'react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildRouteTable } from '../../../engine/src/index';
import { requireDefinitions } from '../../../definitions/read';
import type { Services } from '../app/services';
import { createI18n } from '../i18n/i18n';
import type { ShellValue } from '../shell/shellContext';
import en from '../../../schemas/i18n/en.json';
import type { Rec } from './api';
import { mountRoot } from './domTesting';
import { flushPendingCommits } from './widgets/deferred';
import { EntityForm } from './EntityForm';
import type { RecordStore } from './useEntityForm';
import { InShell } from './InShell';

// @rjsf/primereact's ES build imports primereact's folders, which Node cannot resolve here; its Form is RJSF core's with PrimeReact widgets.
vi.mock('@rjsf/primereact', async () => {
  const core = await import('@rjsf/core');
  return { default: core.default, Templates: core.getDefaultRegistry().templates };
});

const registry = requireDefinitions(process.cwd());
const shell = (lang: string) => ({ registry, lang, routes: buildRouteTable(registry, 'en'), principal: { access: [], groups: [], selectedWarehouse: null }, allowed: [], menu: [] }) as unknown as ShellValue;
const services = { api: {}, config: { deployment: { settings: {} } } } as unknown as Services;

let i18n: I18n;
beforeAll(async () => { i18n = await createI18n({ en }, 'en'); });
const mounted: (() => void)[] = [];
afterEach(() => { while (mounted.length) mounted.pop()!(); });

/**
 * A company as the server answers it, complete: RJSF adds no defaults to it. (When it adds some, RJSF 6
 * happens to skip the rebuild that follows a user's change, which hid the lost edits on a new record.)
 */
const AGRO = { id: 'c1', company_name: 'Agro SA', state: 1, extensions: { companyInfo: { cuit: '30-71234567-1', company_type: 'distributor', state: 1 } } };

/** The edit form of AGRO; `show` re-renders it in another language, as the shell does when its language reaches the feature frame. */
async function mountEdit() {
  const root = mountRoot();
  mounted.push(root.unmount);
  const saved: Rec[] = [];
  const store: RecordStore = { get: async () => structuredClone(AGRO), create: async (_e, v) => v, update: async (_e, _i, v) => { saved.push(v); return v; } };
  const show = (lang: string) => root.render(
    <InShell i18n={i18n} services={services} shell={shell(lang)}>
      <EntityForm entity="company" id="c1" store={store} onSaved={() => undefined} onCancel={() => undefined} />
    </InShell>,
  );
  show('en');
  await act(async () => undefined); // the record arrives
  const input = (name: string) => root.container.querySelector<HTMLInputElement>(`#root_${name}`)!;
  /** Types as a user and pauses: the text widget hands the value to RJSF (./widgets/deferred). */
  const type = async (name: string, text: string) => {
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input(name), text);
      input(name).dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(() => flushPendingCommits());
  };
  /** Clicks Save and waits for the update request (validation first compiles the schema: no fixed delay is long enough on a busy machine). */
  const save = () => act(async () => {
    root.container.querySelector<HTMLButtonElement>('[data-testid="form-save"]')!.click();
    await vi.waitFor(() => { if (saved.length === 0) throw new Error('no update sent yet'); }, { timeout: 10_000 });
  });
  const label = (name: string) => root.container.querySelector(`label[for="root_${name}"]`)!.textContent;
  return { show, input, type, save, saved, label };
}

describe('a form whose language changes after the user typed', () => {
  it('keeps what was typed on screen, and saves what is shown', async () => {
    const f = await mountEdit();
    expect(f.input('company_name').value).toBe('Agro SA');
    await f.type('company_name', 'Agro SA (Rosario)');
    await f.type('prefix', '779123');
    f.show('es');
    expect(f.label('company_name')).toContain('Razón social');
    expect(f.input('company_name').value).toBe('Agro SA (Rosario)');
    expect(f.input('prefix').value).toBe('779123');
    await f.save();
    expect(f.saved).toHaveLength(1);
    expect(f.saved[0]).toMatchObject({ company_name: 'Agro SA (Rosario)', prefix: '779123' });
  });
});

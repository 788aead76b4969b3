// @vitest-environment happy-dom
import { act } from 'react';
import Form from '@rjsf/core';
import validator from '@rjsf/validator-ajv8';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildRouteTable, type Registry, type WorkflowDef } from '../../../../engine/src/index';
import { fixtureRegistry } from '../../../../engine/src/testing/fixtures';
import { ApiRequestError } from '../../api/errors';
import type { Services } from '../../app/services';
import { createI18n } from '../../i18n/i18n';
import type { ShellValue } from '../../shell/shellContext';
import { mountRoot } from '../domTesting';
import { routeWidgets } from '../formSchema';
import { flushPendingCommits } from './deferred';
import type { ContainerScope } from './containerLogic';
import { ContainerLines } from './ContainerLines';
import { InShell } from '../InShell';

type Rec = Record<string, unknown>;
const t = (en: string) => ({ en, es: en, fr: en });
const ibcWorkflow: WorkflowDef = {
  name: 'ibc', label: t('IBC'), entity: 'ibc_container', access: 'x', stateField: 'status', initial: 'in_stock_empty',
  states: [{ id: 'in_stock_empty', label: t('In stock, empty'), color: '#123456' }, { id: 'at_customer', label: t('At customer'), color: '#654321' }],
  transitions: [], depositFields: ['deposit_id'], dateField: 'manufactured_date',
};
const base = fixtureRegistry();
const registry: Registry = { ...base, workflows: { ...base.workflows, ibc: ibcWorkflow } };
const shell = { registry, lang: 'en', routes: buildRouteTable(registry, 'en'), principal: { access: [], groups: [], selectedWarehouse: null }, allowed: [], menu: [] } as unknown as ShellValue;
const services = { api: {}, config: { deployment: { settings: {} } } } as unknown as Services;

const fleet = [{ id: 'i1', serial_number: 'IBC-001', nfcTagNumber: 'TAG-A', status: 'in_stock_empty' }, { id: 'i2', serial_number: 'IBC-002', status: 'at_customer' }];
const scope: ContainerScope = {
  async lookup(by) {
    const hit = 'serial' in by ? fleet.find((r) => r.serial_number === by.serial) : fleet.find((r) => r.nfcTagNumber === by.nfc);
    const value = 'serial' in by ? by.serial : by.nfc;
    if (!hit) throw new ApiRequestError(404, 'VALUE_NOT_FOUND', `No IBC has "${value}"`, [], {});
    return hit;
  },
};

const schema = {
  type: 'object',
  properties: { containers: { type: 'array', title: 'Containers', items: { type: 'object', properties: { ibc: { type: 'string' }, ibcNumber: { type: 'string' }, topSeal: { type: 'string', title: 'Top seal' } } } } },
} as RJSFSchema;
const uiSchema = routeWidgets(schema as never, {
  containers: { 'ui:options': { widget: 'list' }, items: { ibc: { 'ui:options': { widget: 'picker', ref: 'ibc_container' } }, ibcNumber: { 'ui:options': { widget: 'text' } }, topSeal: { 'ui:options': { widget: 'text' } } } },
} as never) as UiSchema;

let i18n: I18n;
beforeAll(async () => { i18n = await createI18n({ en: {} }, 'en'); });
const mounted: (() => void)[] = [];
afterEach(() => { while (mounted.length) mounted.pop()!(); });

function mount(initial: Rec = {}, containers: ContainerScope = scope) {
  const state = { value: initial };
  const root = mountRoot();
  mounted.push(root.unmount);
  root.render(
    <InShell i18n={i18n} services={services} shell={shell}>
      <Form schema={schema} uiSchema={uiSchema} validator={validator} formData={initial} formContext={{ containers }} fields={{ containers: ContainerLines }}
            onChange={(e) => { state.value = e.formData as Rec; }} />
    </InShell>,
  );
  return { ...root, state };
}

/** A scope whose serial look-ups wait until the test releases them (the server is slow). */
function heldScope() {
  const waiting: (() => void)[] = [];
  const held: ContainerScope = { lookup: (by) => new Promise<void>((r) => waiting.push(r)).then(() => scope.lookup(by)) };
  const release = () => act(async () => { while (waiting.length) waiting.shift()!(); await new Promise((r) => setTimeout(r, 0)); });
  return { held, release };
}

/** Types into an input as a user (React listens to the native input event) and presses Enter, then lets the look-up answer. */
async function scan(container: HTMLElement, text: string) {
  const input = container.querySelector<HTMLInputElement>('[data-testid="container-scan"]')!;
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await act(async () => {
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await new Promise((r) => setTimeout(r, 0));
  });
}

const lines = (c: HTMLElement) => [...c.querySelectorAll<HTMLElement>('[data-testid="container-line"]')].map((l) => [l.dataset.serial, l.querySelector<HTMLElement>('[data-testid="state-badge"]')?.dataset.state]);
const message = (c: HTMLElement) => c.querySelector('[data-testid="container-message"]')?.textContent ?? null;

describe('the container list of an operation form', () => {
  it('adds an IBC scanned by serial or NFC tag with its status, and the form holds {ibc: id, ibcNumber}', async () => {
    const { container, state } = mount();
    await scan(container, 'IBC-002');
    await scan(container, 'TAG-A');
    expect(lines(container)).toEqual([['IBC-002', 'at_customer'], ['IBC-001', 'in_stock_empty']]);
    expect(state.value.containers).toEqual([{ ibc: 'i2', ibcNumber: 'IBC-002' }, { ibc: 'i1', ibcNumber: 'IBC-001' }]);
    expect(message(container)).toBeNull();
  });

  it('refuses an IBC already listed and says an unknown one with the server’s message, changing nothing', async () => {
    const { container, state } = mount({ containers: [{ ibc: 'i1', ibcNumber: 'IBC-001', topSeal: 'S-9' }] });
    await act(async () => { await new Promise((r) => setTimeout(r, 0)); });
    expect(lines(container)).toEqual([['IBC-001', 'in_stock_empty']]);
    await scan(container, 'TAG-A');
    expect(message(container)).toBe('operations.containers.duplicate');
    await scan(container, 'NOPE-7');
    expect(message(container)).toBe('No IBC has "NOPE-7"');
    expect(lines(container)).toHaveLength(1);
    expect(state.value.containers).toEqual([{ ibc: 'i1', ibcNumber: 'IBC-001', topSeal: 'S-9' }]);
  });

  it('draws the other line fields with the form’s own widgets, writing into their line', async () => {
    const { container, state } = mount();
    await scan(container, 'IBC-001');
    const seal = container.querySelector<HTMLInputElement>('#root_containers_0_topSeal')!;
    expect(seal).not.toBeNull();
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(seal, 'TOP-1');
      seal.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(state.value.containers).toEqual([{ ibc: 'i1', ibcNumber: 'IBC-001', topSeal: 'TOP-1' }]);
  });

  it('keeps a seal typed while a scanned IBC is being looked up', async () => {
    const { held, release } = heldScope();
    const { container, state } = mount({ containers: [{ ibc: 'i1', ibcNumber: 'IBC-001' }] }, held);
    await release();
    await scan(container, 'IBC-002');
    const seal = container.querySelector<HTMLInputElement>('#root_containers_0_topSeal')!;
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(seal, 'TOP-1');
      seal.dispatchEvent(new Event('input', { bubbles: true }));
      await flushPendingCommits();
    });
    expect(state.value.containers).toEqual([{ ibc: 'i1', ibcNumber: 'IBC-001', topSeal: 'TOP-1' }]);
    await release();
    expect(state.value.containers).toEqual([{ ibc: 'i1', ibcNumber: 'IBC-001', topSeal: 'TOP-1' }, { ibc: 'i2', ibcNumber: 'IBC-002' }]);
  });

  it('keeps a line removed while a scanned IBC is being looked up', async () => {
    const { held, release } = heldScope();
    const { container, state } = mount({ containers: [{ ibc: 'i1', ibcNumber: 'IBC-001' }] }, held);
    await release();
    await scan(container, 'IBC-002');
    await act(async () => { container.querySelector<HTMLButtonElement>('[data-testid="container-remove"]')!.click(); });
    expect(state.value.containers).toBeUndefined();
    await release();
    expect(lines(container)).toEqual([['IBC-002', 'at_customer']]);
    expect(state.value.containers).toEqual([{ ibc: 'i2', ibcNumber: 'IBC-002' }]);
  });
});

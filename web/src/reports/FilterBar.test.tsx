// @vitest-environment happy-dom
import { act } from 'react';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildRouteTable, type ReportDef } from '../../../engine/src/index';
import { fixtureRegistry } from '../../../engine/src/testing/fixtures';
import type { Services } from '../app/services';
import { createI18n } from '../i18n/i18n';
import { mountRoot } from '../masterdata/domTesting';
import type { ShellValue } from '../shell/shellContext';
import { FilterBar } from './FilterBar';
import { emptyFilters, type FilterValues } from './filters';
import { InShell } from '../masterdata/InShell';

const t = (en: string) => ({ en, es: en, fr: en });
const registry = fixtureRegistry();
const shell = { registry, lang: 'en', routes: buildRouteTable(registry, 'en'), principal: { access: [], groups: [], selectedWarehouse: null }, allowed: [], menu: [] } as unknown as ShellValue;
const services = { api: {}, config: { deployment: { settings: {} } } } as unknown as Services;
const def = {
  key: 'r', label: t('R'), category: 'other', access: 'Reports', source: { entity: 'x', query: 'q', responseField: 'data' }, pipeline: [], depositFields: [], sort: {}, columns: [],
  export: { fileName: 'r', format: 'csv' },
  filters: [
    { id: 'sendDate', label: t('Send date'), type: 'date_range', field: 'sendDate', on: 'source' },
    { id: 'batch', label: t('Batch'), type: 'text', field: 'batch', on: 'source' },
  ],
} as ReportDef;

let i18n: I18n;
beforeAll(async () => { i18n = await createI18n({ en: {} }, 'en'); });
const mounted: (() => void)[] = [];
afterEach(() => { while (mounted.length) mounted.pop()!(); });

function mount(values: FilterValues) {
  const applied: FilterValues[] = [];
  const root = mountRoot();
  mounted.push(root.unmount);
  const draw = (v: FilterValues) => root.render(
    <InShell i18n={i18n} services={services} shell={shell}>
      <FilterBar def={def} values={v} onApply={(x) => applied.push(x)} />
    </InShell>,
  );
  draw(values);
  return { ...root, applied, draw };
}

const input = (c: HTMLElement, id: string) => c.querySelector<HTMLInputElement>(`[data-testid="${id}"]`)!;
async function type(el: HTMLInputElement, text: string) {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, text);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}
const apply = (c: HTMLElement) => c.querySelector<HTMLButtonElement>('[data-testid="report-apply"]')!;

describe('report filter bar', () => {
  it('applies the typed filters together, refuses an inverted range, and clears them all', async () => {
    const { container, applied } = mount(emptyFilters(def.filters));
    await type(input(container, 'report-filter-sendDate-from'), '2024-02-01');
    await type(input(container, 'report-filter-sendDate-to'), '2024-01-01');
    expect(apply(container).disabled).toBe(true);
    expect(container.querySelector('[role="alert"]')).not.toBeNull();
    await type(input(container, 'report-filter-sendDate-to'), '2024-02-28');
    await type(input(container, 'report-filter-batch'), 'L-9');
    expect(applied).toEqual([]);
    await act(async () => { apply(container).click(); });
    expect(applied).toEqual([{ sendDate: { from: '2024-02-01', to: '2024-02-28' }, batch: 'L-9' }]);
    await act(async () => { container.querySelector<HTMLButtonElement>('[data-testid="report-clear"]')!.click(); });
    expect(applied[1]).toEqual(emptyFilters(def.filters));
  });

  it('shows values set from outside (a saved filter applied) in place of the draft', async () => {
    const { container, draw } = mount(emptyFilters(def.filters));
    await type(input(container, 'report-filter-batch'), 'typed');
    draw({ sendDate: { from: '2023-05-01', to: '' }, batch: 'saved' });
    expect(input(container, 'report-filter-batch').value).toBe('saved');
    expect(input(container, 'report-filter-sendDate-from').value).toBe('2023-05-01');
  });
});

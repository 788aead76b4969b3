// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { act } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../../src/i18n/i18n';
import { mountRoot } from '../../../src/masterdata/domTesting';
import { openMobileDb } from '../db';
import { STRINGS } from '../i18n/strings';
import { Mobile, MobileContext } from '../services';
import { BATCH } from '../testing/features';
import type { FeatureDef } from '../types';
import { ActionForm, type FormResult } from './ActionForm';

let mounted: ReturnType<typeof mountRoot> | null = null;
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

/** The create form of `feature` in `lang`; what it submits lands in `submitted`. */
async function renderForm(feature: FeatureDef, lang: 'en' | 'es' = 'en') {
  const submitted: FormResult[] = [];
  const fetchFn = (async () => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
  const m = new Mobile(await openMobileDb(`form-test-${Math.random()}`), lang, window, fetchFn);
  const i18n = await createI18n(STRINGS, lang);
  mounted = mountRoot();
  mounted.render(
    <I18nextProvider i18n={i18n}><MobileContext.Provider value={m}>
      <ActionForm feature={feature} heading="New" fields={feature.create!.fields} comment="none" onSubmit={(r) => submitted.push(r)} onCancel={() => undefined} />
    </MobileContext.Provider></I18nextProvider>,
  );
  const root = mounted.container;
  const q = <T extends Element = HTMLElement>(sel: string) => root.querySelector<T>(sel);
  return {
    root, submitted, q,
    type: (name: string, value: string) => act(() => {
      const el = q<HTMLInputElement>(`[name="${name}"]`)!;
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }),
    click: (sel: string) => act(() => q<HTMLButtonElement>(sel)!.click()),
    submit: () => act(() => q<HTMLButtonElement>('button[type=submit]')!.click()),
    error: () => q('[role=alert]')?.textContent ?? null,
  };
}

describe('ActionForm: lines for an array of objects', () => {
  it('starts a required array with one line; adds, fills and removes lines; submits the list of objects, typed', async () => {
    const f = await renderForm(BATCH);
    expect(f.q('[data-testid=lines-containers] > legend')?.textContent).toBe('IBCs');
    expect(f.root.querySelectorAll('[data-testid^=line-containers-]')).toHaveLength(1);
    await f.click('[data-testid=add-line-containers]');
    await f.click('[data-testid=add-line-containers]');
    expect(f.root.querySelectorAll('[data-testid^=line-containers-]')).toHaveLength(3);

    await f.type('containers.0.ibcNumber', 'IBC-1');
    await f.type('containers.0.quantity', '10');
    await f.type('containers.0.topSeal', 'S1');
    await f.type('containers.1.ibcNumber', 'IBC-X');
    await f.type('containers.2.ibcNumber', 'IBC-2');
    await f.type('containers.2.quantity', '2,5');
    await f.type('containers.2.topSeal', 'S2');
    await act(() => f.q<HTMLInputElement>('[name="containers.2.full"]')!.click());
    // The middle line goes: the third becomes the second, its values kept.
    await f.click('[data-testid=remove-line-containers-1]');
    expect(f.root.querySelectorAll('[data-testid^=line-containers-]')).toHaveLength(2);
    expect(f.q<HTMLInputElement>('[name="containers.1.ibcNumber"]')!.value).toBe('IBC-2');
    expect(f.q('[data-testid=line-containers-1] > legend')?.textContent).toBe('Line 2');

    // A blank line is dropped.
    await f.click('[data-testid=add-line-containers]');
    await f.submit();
    expect(f.error()).toBeNull();
    expect(f.submitted).toEqual([{ fields: { containers: [
      { ibcNumber: 'IBC-1', quantity: 10, topSeal: 'S1' },
      { ibcNumber: 'IBC-2', quantity: 2.5, topSeal: 'S2', full: true },
    ] } }]);
  });

  it('labels each input by its property\'s title, offers Scan beside the serial, and hides the optional reference the server derives', async () => {
    const f = await renderForm(BATCH, 'es');
    const line = f.q('[data-testid=line-containers-0]')!;
    expect(line.querySelector('legend')?.textContent).toBe('Línea 1');
    expect([...line.querySelectorAll('input')].map((i) => i.name)).toEqual(['containers.0.ibcNumber', 'containers.0.quantity', 'containers.0.topSeal', 'containers.0.full']);
    expect(line.querySelector('[name="containers.0.ibc"]')).toBeNull();
    expect(f.q('input[name="containers.0.quantity"]')!.closest('label')!.textContent).toBe('Cantidad');
    expect(f.q<HTMLInputElement>('input[name="containers.0.quantity"]')!.type).toBe('number');
    const scans = [...line.querySelectorAll('button')].filter((b) => b.textContent?.includes('Escanear'));
    expect(scans.map((b) => b.getAttribute('aria-label'))).toEqual(['Escanear: Número de serie del IBC']);
    expect(f.q('[data-testid=add-line-containers]')!.textContent).toContain('Añadir línea');
  });

  it('shows a required reference as the picker', async () => {
    const items = BATCH.fields.properties!.containers.items!;
    const f = await renderForm({ ...BATCH, fields: { ...BATCH.fields, properties: { ...BATCH.fields.properties, containers: { ...BATCH.fields.properties!.containers, items: { ...items, required: ['ibc'] } } } } });
    expect(f.q('select[name="containers.0.ibc"]')).not.toBeNull();
  });

  it('refuses a kept line missing a required property, and a required array with no line filled', async () => {
    const f = await renderForm(BATCH);
    await f.submit();
    expect(f.error()).toBe('IBCs is required');
    await f.click('[data-testid=remove-line-containers-0]');
    await f.submit();
    expect(f.error()).toBe('IBCs is required');
    await f.click('[data-testid=add-line-containers]');
    await f.click('[data-testid=add-line-containers]');
    await f.type('containers.1.ibcNumber', 'IBC-1');
    await f.type('containers.1.quantity', '3');
    await f.submit();
    expect(f.error()).toBe('Top seal (line 2) is required');
    await f.type('containers.1.topSeal', 'S');
    await f.submit();
    expect(f.error()).toBeNull();
    expect(f.submitted[0].fields).toEqual({ containers: [{ ibcNumber: 'IBC-1', quantity: 3, topSeal: 'S' }] });
  });

  it('starts an optional array with no line and leaves it out when none is filled', async () => {
    const { minItems: _, ...containers } = BATCH.fields.properties!.containers;
    const f = await renderForm({ ...BATCH, fields: { ...BATCH.fields, properties: { ...BATCH.fields.properties, containers } } });
    expect(f.root.querySelectorAll('[data-testid^=line-containers-]')).toHaveLength(0);
    await f.type('batchDate', '2026-03-01');
    await f.submit();
    expect(f.submitted).toEqual([{ fields: { batchDate: '2026-03-01' } }]);
  });

  it('fills a line\'s serial from an NFC tag when the browser reads NFC (typing still works)', async () => {
    /** A Web NFC reader that reads, once scanning, a tag whose text record holds a GS1 Digital Link. */
    class FakeReader extends EventTarget {
      onreading: ((e: unknown) => void) | null = null;
      onreadingerror: (() => void) | null = null;
      async scan() {
        setTimeout(() => this.onreading?.({ serialNumber: '04:aa', message: { records: [{ recordType: 'url', data: new DataView(new TextEncoder().encode('https://id.example.com/8003/01234567890128IBC-9').buffer) }] } }), 5);
      }
    }
    (window as unknown as { NDEFReader?: unknown }).NDEFReader = FakeReader;
    try {
      const f = await renderForm(BATCH);
      const scan = [...f.q('[data-testid=line-containers-0]')!.querySelectorAll('button')].find((b) => b.textContent?.includes('Scan'))!;
      expect(scan.textContent).toContain('📶');
      await act(async () => {
        scan.click();
        await new Promise((r) => setTimeout(r, 30));
      });
      expect(f.q<HTMLInputElement>('[name="containers.0.ibcNumber"]')!.value).toBe('IBC-9');
      await f.type('containers.0.ibcNumber', 'IBC-10');
      expect(f.q<HTMLInputElement>('[name="containers.0.ibcNumber"]')!.value).toBe('IBC-10');
    } finally {
      delete (window as unknown as { NDEFReader?: unknown }).NDEFReader;
    }
  });
});

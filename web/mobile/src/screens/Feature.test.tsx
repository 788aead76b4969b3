// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { act, type ComponentProps, type ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../../src/i18n/i18n';
import { mountRoot } from '../../../src/masterdata/domTesting';
import { openMobileDb } from '../db';
import { STRINGS } from '../i18n/strings';
import { Mobile, MobileContext } from '../services';
import { MAP_LOCATION, QC, RETURNS } from '../testing/features';
import type { ActionPayload } from '../types';
import { Feature } from './Feature';

/** A tiny fake of the server: the QC list and POST /api/v3/mobile/actions (applies everything). */
function fakeServer() {
  const sent: ActionPayload[] = [];
  const fetchFn = async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url);
    let body: unknown = {};
    if (path.startsWith('/api/v3/operations/ibc?')) {
      body = { data: [{ id: 'r1', serial_number: 'IBC-1', status: 'returned' }, { id: 'r2', serial_number: 'IBC-2', status: 'in_qc' }] };
    } else if (path === '/api/v3/mobile/actions' && init?.method === 'POST') {
      const { actions } = JSON.parse(String(init.body)) as { actions: ActionPayload[] };
      sent.push(...actions);
      body = { results: actions.map((a) => ({ seq: a.seq, status: 'applied', record: { id: a.recordId, state: QC.transitions[a.transition!].to } })) };
    }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetchFn: fetchFn as typeof fetch, sent };
}

let mounted: ReturnType<typeof mountRoot> | null = null;
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

const settle = async () => {
  for (let i = 0; i < 20; i++) await act(() => new Promise((r) => setTimeout(r, 5)));
};
/** Settles until `check` passes (or throws its failure after `ms`): IndexedDB and fetch answers finish when they finish, later on a loaded machine. */
const eventually = async (check: () => unknown, ms = 5000) => {
  const end = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (e) {
      if (Date.now() > end) throw e;
    }
    await act(() => new Promise((r) => setTimeout(r, 10)));
  }
};
/** Signs `email` in and mounts the feature screen over a Mobile on its own database and `fetchFn`; settles. */
async function mountFeature(email: string, db: string, fetchFn: typeof fetch, feature: ReactElement<ComponentProps<typeof Feature>>) {
  localStorage.setItem('tm.mobile.session', JSON.stringify({ token: 't', email, user: { id: 'u1' } }));
  const m = new Mobile(await openMobileDb(db), 'en', window, fetchFn);
  const i18n = await createI18n(STRINGS, 'en');
  mounted = mountRoot();
  mounted.render(<I18nextProvider i18n={i18n}><MobileContext.Provider value={m}>{feature}</MobileContext.Provider></I18nextProvider>);
  await settle();
  return { m, root: mounted.container };
}
const buttons = (root: HTMLElement, sel = '[data-testid=record-card] .actions button') => [...root.querySelectorAll(sel)].map((b) => b.textContent);

describe('the generic feature screen', () => {
  it('offers the actions of the chosen record\'s state, queues one, and shows the state it leads to', async () => {
    const server = fakeServer();
    const { m, root } = await mountFeature('qc@x', 'feature-test', server.fetchFn, <Feature feature={QC} />);
    expect(root.querySelector('h2')?.textContent).toBe('Perform QC');
    expect(root.querySelector('input[name=serial]')).not.toBeNull();
    const listed = () => [...root.querySelectorAll<HTMLButtonElement>('[data-testid=record-list] button')];
    await eventually(() => expect(listed().map((r) => r.querySelector('.record-title')?.textContent)).toEqual(['IBC-1', 'IBC-2']));
    const rows = listed();

    await act(async () => rows[1].click());
    expect(buttons(root)).toEqual(['Pass QC', 'Block']);
    await act(async () => rows[0].click());
    expect(buttons(root)).toEqual(['Start QC']);

    await act(async () => root.querySelector<HTMLButtonElement>('[data-testid=action-startQC]')!.click());
    const form = root.querySelector<HTMLFormElement>('[data-testid=action-form]')!;
    expect(form.querySelector('h3')?.textContent).toBe('Start QC · IBC-1');
    await act(async () => form.querySelector<HTMLButtonElement>('button[type=submit]')!.click());
    await eventually(async () => {
      expect(server.sent).toMatchObject([{ seq: 1, feature: QC.id, workflow: 'ibc', recordId: 'r1', kind: 'transition', transition: 'startQC', fields: {}, offline: false }]);
      expect((await m.queue.all())[0]).toMatchObject({ status: 'applied', record: { id: 'r1', state: 'in_qc' } });
      // The verdict is newer than the kept list: the record is now in QC and offers QC's actions.
      expect(buttons(root)).toEqual(['Pass QC', 'Block']);
    });
  });
});

describe('a list with a map', () => {
  it('shows a marker per listed record with a place, counts the others, and a tapped marker selects its record', async () => {
    const data = [
      { id: 'r1', serial_number: 'IBC-1', status: 'in_stock_empty', location: { lat: -34.6, lng: -58.4 } },
      { id: 'r2', serial_number: 'IBC-2', status: 'at_customer', location: { lat: -31.4, lng: -64.2 } },
      { id: 'r3', serial_number: 'IBC-3', status: 'at_customer' },
    ];
    const fetchFn = (async () => new Response(JSON.stringify({ data }), { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
    const { root } = await mountFeature('map@x', 'feature-map-test', fetchFn,
      <Feature feature={MAP_LOCATION} tiles={{ tileUrl: 'https://tiles.test/{z}/{x}/{y}.png', attribution: 'Test tiles' }} />);
    // Leaflet's first, cold, dynamic import may take longer than one settle.
    await eventually(() => expect(root.querySelector('[data-testid=records-map] .leaflet-marker-icon')).not.toBeNull());
    const map = root.querySelector<HTMLElement>('[data-testid=records-map]')!;
    expect(map.classList.contains('leaflet-container')).toBe(true);
    expect(map.dataset.tiles).toBe('on');
    const markers = [...map.querySelectorAll<HTMLElement>('.leaflet-marker-icon')];
    expect(markers.map((e) => e.getAttribute('title'))).toEqual(['IBC-1', 'IBC-2']);
    expect(map.dataset.markers).toBe('r1,r2');
    expect(root.querySelector('[data-testid=map-unplaced]')?.textContent).toBe('Not on the map (no place recorded): 1');
    // The map sits above the list, which still lists all three.
    expect(root.querySelectorAll('[data-testid=record-list] li')).toHaveLength(3);
    expect(map.compareDocumentPosition(root.querySelector('[data-testid=record-list]')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    await act(async () => markers[1].dispatchEvent(new MouseEvent('click', { bubbles: true })));
    expect(root.querySelector('[data-testid=record-card] h3')?.textContent).toBe('IBC-2');
    expect(buttons(root)).toEqual(['Map location']);

    // The search narrows the map as it narrows the list.
    const search = root.querySelector<HTMLInputElement>('input[type=search]')!;
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(search, 'IBC-1');
      search.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(root.querySelector<HTMLElement>('[data-testid=records-map]')!.dataset.markers).toBe('r1');
    expect(root.querySelector('[data-testid=map-unplaced]')).toBeNull();
  });
});

describe('a list\'s subtitle', () => {
  it('reads the state\'s label and the deposit\'s name (its id until the kept master data arrives), and the search finds a record by them', async () => {
    const data = [
      { id: 'r1', serial_number: 'IBC-1', status: 'in_stock_empty', deposit_id: 'dep1', returnState: 'empty' },
      { id: 'r2', serial_number: 'IBC-2', status: 'at_customer', deposit_id: 'dep2' },
    ];
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    const asked: string[] = [];
    const fetchFn = (async (url: RequestInfo | URL) => {
      const path = String(url);
      asked.push(path);
      let body: unknown = { data };
      if (path.startsWith('/api/v3/masterdata/company_division?')) {
        await held;
        body = { data: [{ id: 'dep1', name: 'Depósito Envasado Campana' }, { id: 'dep2', name: 'Cliente Rosario' }] };
      }
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const { root } = await mountFeature('ret@x', 'feature-subtitle-test', fetchFn, <Feature feature={RETURNS} />);
    const subtitles = () => [...root.querySelectorAll('[data-testid=record-list] button .muted')].map((e) => e.textContent);
    await eventually(() => expect(subtitles()).toEqual(['In stock, empty · dep1 · Empty', 'At customer · dep2']));

    release();
    await eventually(() => expect(subtitles()).toEqual(['In stock, empty · Depósito Envasado Campana · Empty', 'At customer · Cliente Rosario']));
    expect(asked.filter((p) => p.startsWith('/api/v3/masterdata/'))).toHaveLength(1);

    const search = root.querySelector<HTMLInputElement>('input[type=search]')!;
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(search, 'rosario');
      search.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect([...root.querySelectorAll('[data-testid=record-list] .record-title')].map((e) => e.textContent)).toEqual(['IBC-2']);
    await act(async () => root.querySelector<HTMLButtonElement>('[data-testid=record-list] button')!.click());
    expect(root.querySelector('[data-testid=record-card] .muted')?.textContent).toBe('At customer · Cliente Rosario');
  });
});

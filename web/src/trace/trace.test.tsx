// @vitest-environment happy-dom
import { act } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildMenu, buildRouteTable, routesFor, type FeatureDef, type TraceFeatureDef } from '../../../engine/src/index';
import { requireDefinitions } from '../../../definitions/read';
import { ApiClient } from '../api/client';
import { ServicesContext, type Services } from '../app/services';
import type { GoToPayload } from '../frame/messages';
import { createI18n } from '../i18n/i18n';
import { mountRoot } from '../masterdata/domTesting';
import { MAP_DEFAULTS } from '../masterdata/widgets/mapLogic';
import { ShellContext, type ShellValue } from '../shell/shellContext';
import en from '../../../schemas/i18n/en.json';
import { layered, nodeGoTo, paramsOf, paramsOfHit, queryOf, traceFeature, type TraceAnswer } from './model';
import TraceMap from './TraceMap';
import TraceScreen from './TraceScreen';

const registry = requireDefinitions(process.cwd());
const KEYS = ['Traceability Map', 'Dashboards', 'Assets', 'Deliveries', 'ibcTraceability', 'IBC Inventory'];

function shellFor(access: string[]): ShellValue {
  const routes = buildRouteTable(registry, 'en');
  const principal = { access, groups: [], selectedWarehouse: null };
  return { registry, lang: 'en', routes, principal, allowed: routesFor(routes, principal, registry.access.superadmin), menu: buildMenu(registry, routes, principal, 'en') };
}

/** A trace as the server answers it (server/src/trace/trace.test.ts proves the server side): an import, a declaration, a delivery stopped at the group's edge, an IBC. */
const ANSWER: TraceAnswer = {
  start: { kind: 'lot', nodes: ['lot:m-ai|AI-1'], identifier: 'AI-1' },
  direction: 'both',
  nodes: [
    { id: 'op:product_import:imp', kind: 'operation', label: 'Import IMP-1', workflow: 'product_import', workflowLabel: 'Import', record: 'imp', category: 'import', document: 'IMP-1', date: '2025-03-01', state: 'Imported', deposit: 'dep-plant', location: { lat: -34.6, lng: -58.4 }, companies: [{ id: 'c-sup', name: 'Shanghai Chem', role: 'supplier' }] },
    { id: 'lot:m-ai|AI-1', kind: 'lot', label: 'Glyphosate technical · AI-1', material: 'm-ai', materialName: 'Glyphosate technical', lot: 'AI-1', start: true, deposit: 'dep-plant', location: { lat: -34.6, lng: -58.4 } },
    { id: 'op:product_declaration:pd', kind: 'operation', label: 'Product declaration PD-1', workflow: 'product_declaration', workflowLabel: 'Product declaration', record: 'pd', category: 'transformation', document: 'PD-1', deposit: 'dep-plant', location: { lat: -34.6, lng: -58.4 } },
    { id: 'lot:m-p|P-1', kind: 'lot', label: 'Glyphosate 48 SL · P-1', material: 'm-p', materialName: 'Glyphosate 48 SL', lot: 'P-1', deposit: 'dep-plant', location: { lat: -34.6, lng: -58.4 } },
    { id: 'op:delivery:dl', kind: 'operation', label: 'Delivery R-0001', workflow: 'delivery', workflowLabel: 'Delivery', record: 'dl', category: 'shipment', document: 'R-0001', deposit: 'dep-plant', location: { lat: -34.6, lng: -58.4 }, beyond: 2 },
    { id: 'ibc:i-a', kind: 'ibc', label: 'IBC IBC-A', serial: 'IBC-A', record: 'i-a', deposit: 'dep-plant', location: { lat: -34.6, lng: -58.4 } },
    { id: 'deposit:dep-farm', kind: 'deposit', label: 'Campo Verde deposit (Campo Verde)', companyName: 'Campo Verde', deposit: 'dep-farm', location: { lat: -31.4, lng: -64.2 } },
  ],
  edges: [
    { id: 'e1', from: 'op:product_import:imp', to: 'lot:m-ai|AI-1', kind: 'produced', material: 'm-ai', lot: 'AI-1', quantity: 600, unit: 'KG', deposit: 'dep-plant', at: '2025-03-01T10:00:00.000Z', operation: { workflow: 'product_import', id: 'imp', transition: 'confirm' } },
    { id: 'e2', from: 'lot:m-ai|AI-1', to: 'op:product_declaration:pd', kind: 'consumed', material: 'm-ai', lot: 'AI-1', quantity: 200, unit: 'KG', deposit: 'dep-plant', at: '2025-03-02T10:00:00.000Z', operation: { workflow: 'product_declaration', id: 'pd', transition: 'declare' } },
    { id: 'e3', from: 'op:product_declaration:pd', to: 'lot:m-p|P-1', kind: 'produced', material: 'm-p', lot: 'P-1', quantity: 2000, unit: 'L', deposit: 'dep-plant', at: '2025-03-02T10:00:00.000Z', operation: { workflow: 'product_declaration', id: 'pd', transition: 'declare' } },
    { id: 'e4', from: 'lot:m-p|P-1', to: 'op:delivery:dl', kind: 'consumed', material: 'm-p', lot: 'P-1', quantity: 1000, unit: 'L', deposit: 'dep-plant', at: '2025-03-03T10:00:00.000Z', operation: { workflow: 'delivery', id: 'dl', transition: 'confirm' } },
    { id: 'e5', from: 'op:product_declaration:pd', to: 'ibc:i-a', kind: 'filled', material: 'm-p', lot: 'P-1', quantity: 500, unit: 'L', deposit: 'dep-plant', at: '2025-03-03T10:00:00.000Z', operation: { workflow: 'product_declaration', id: 'pd', transition: 'declare' } },
  ],
  places: [
    { id: 'deposit:dep-plant', kind: 'deposit', label: 'Plant deposit (Agro SA)', location: { lat: -34.6, lng: -58.4 }, nodes: ['op:product_import:imp', 'lot:m-ai|AI-1'] },
    { id: 'deposit:dep-farm', kind: 'deposit', label: 'Campo Verde deposit (Campo Verde)', location: { lat: -31.4, lng: -64.2 }, nodes: ['deposit:dep-farm'] },
    { id: 'company:c-sup', kind: 'company', label: 'Shanghai Chem', location: { lat: 31.2, lng: 121.5 }, nodes: ['op:product_import:imp'] },
  ],
  flows: [
    { from: 'company:c-sup', to: 'deposit:dep-plant', material: 'm-ai', lot: 'AI-1', quantity: 600, unit: 'KG', operation: 'op:product_import:imp' },
    { from: 'deposit:dep-plant', to: 'deposit:dep-farm', material: 'm-p', lot: 'P-1', quantity: 500, unit: 'L', operation: 'op:delivery:dl' },
  ],
  summary: { lots: 2, operations: 3, shipments: 1, ibcs: 1, deposits: 2, events: 6, customers: [{ id: 'c-farm', name: 'Campo Verde' }], suppliers: [{ id: 'c-sup', name: 'Shanghai Chem' }], countries: [{ id: 'cn', name: 'China' }] },
  boundary: { links: 2, nodes: 1, warehouse: 'Plant' },
  limits: { maxDepth: 64, depth: 3, truncated: null },
};

let i18n: I18n;
beforeAll(async () => { i18n = await createI18n({ en }, 'en'); });
const mounted: (() => void)[] = [];
afterEach(() => { while (mounted.length) mounted.pop()!(); });

describe('the trace model', () => {
  it('reads a start from the address and writes it back, one kind at a time, both ways by default', () => {
    expect(paramsOf('?lot=AI-1&material=m-ai&direction=forward')).toEqual({ lot: 'AI-1', material: 'm-ai', direction: 'forward' });
    expect(paramsOf('?ibc=IBC-A&direction=sideways')).toEqual({ ibc: 'IBC-A', direction: 'both' });
    expect(paramsOf('?shipment=R-1')).toEqual({ shipment: 'R-1', direction: 'both' });
    expect(paramsOf('?lot=%20%20')).toBeNull();
    expect(queryOf({ lot: 'A B', material: 'm', direction: 'both' }, { sort: '-quantity', page: 2 })).toBe('lot=A+B&material=m&sort=-quantity&page=2');
    expect(paramsOfHit({ kind: 'shipment', label: 'R-1', detail: '', shipment: 'id-1' }, 'backward')).toEqual({ shipment: 'id-1', direction: 'backward' });
  });

  it('lays the graph out in layers from inputs to what they became, and survives a cycle', () => {
    const at = new Map(layered(ANSWER.nodes, ANSWER.edges).map((p) => [p.id, p]));
    expect(['op:product_import:imp', 'lot:m-ai|AI-1', 'op:product_declaration:pd', 'lot:m-p|P-1', 'op:delivery:dl'].map((id) => at.get(id)!.layer)).toEqual([0, 1, 2, 3, 4]);
    expect(at.get('ibc:i-a')!.layer).toBe(3);
    expect(new Set([at.get('lot:m-p|P-1')!.row, at.get('ibc:i-a')!.row]).size).toBe(2);
    const cyc = layered([{ id: 'a' }, { id: 'b' }, { id: 'c' }], [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'b' }]);
    expect(cyc.map((p) => p.layer)).toEqual([0, 1, 2]);
  });

  it('opens a node where a feature the user may open shows it: an operation, an IBC, a lot\'s history; a deposit nowhere', () => {
    const shell = shellFor(KEYS);
    const byId = (id: string) => ANSWER.nodes.find((n) => n.id === id)!;
    expect(nodeGoTo(shell, byId('op:delivery:dl'))).toEqual({ type: 'deliveries', query: { id: 'dl' } });
    expect(nodeGoTo(shell, byId('ibc:i-a'))?.query).toEqual({ id: 'i-a' });
    expect(nodeGoTo(shell, byId('lot:m-ai|AI-1'))).toEqual({ type: 'lot', query: { lot: 'AI-1', material: 'm-ai' } });
    expect(nodeGoTo(shell, byId('deposit:dep-farm'))).toBeNull();
    expect(nodeGoTo(shellFor(['Traceability Map']), byId('op:delivery:dl'))).toBeNull();
    expect(traceFeature(shell, 'events')).toBe('events');
    expect(traceFeature(shellFor(['Traceability Map']), 'history')).toBeNull();
  });
});

describe('the trace map (Leaflet)', () => {
  it('marks each located place and draws one line per pair of places goods flowed between, without tiles when none are set', () => {
    const root = mountRoot();
    mounted.push(root.unmount);
    root.render(<TraceMap answer={ANSWER} settings={MAP_DEFAULTS} lang="en" label="The trace on a map" onOpen={() => undefined} />);
    const box = root.container.querySelector<HTMLElement>('[data-testid=trace-map]')!;
    expect(box.dataset.tiles).toBe('off');
    expect(box.dataset.markers).toBe('deposit:dep-plant,deposit:dep-farm,company:c-sup');
    expect(box.dataset.flows).toBe('2');
    expect(root.container.querySelectorAll('.leaflet-marker-icon')).toHaveLength(2);
    expect(root.container.querySelectorAll('path.leaflet-interactive').length).toBeGreaterThanOrEqual(3);
  });
});

/** The trace routes as the server answers them; every call recorded. */
function server(answers: Record<string, unknown>) {
  const calls: string[] = [];
  const fetchFn = async (url: RequestInfo | URL) => {
    const path = String(url);
    calls.push(path);
    const route = Object.keys(answers).find((k) => path.startsWith(k));
    const body = route ? answers[route] : { error: { code: 'ROUTE_NOT_FOUND', message: 'no', details: [] } };
    return new Response(JSON.stringify(body), { status: route ? 200 : 404, headers: { 'content-type': 'application/json' } });
  };
  return { fetchFn: fetchFn as typeof fetch, calls };
}

async function mountScreen(view: TraceFeatureDef['view'], entry: string, answers: Record<string, unknown>) {
  const s = server(answers);
  const api = new ApiClient({ deploymentName: 'agro', cacheTtlMs: 0, token: () => 't', warehouseGroup: () => 'Plant', storage: null, fetchFn: s.fetchFn });
  const services = { api, config: { deployment: { settings: registry.deployment.settings } } } as unknown as Services;
  const feature = registry.features.features.find((f) => f.trace?.view === view) as FeatureDef & { trace: TraceFeatureDef };
  const goTos: GoToPayload[] = [];
  const root = mountRoot();
  mounted.push(root.unmount);
  await act(async () => {
    root.render(
      <I18nextProvider i18n={i18n}>
        <ServicesContext.Provider value={services}>
          <ShellContext.Provider value={shellFor(KEYS)}>
            <MemoryRouter initialEntries={[entry]}>
              <TraceScreen feature={feature} warehouseName="Plant" goTo={(p) => goTos.push(p)} />
            </MemoryRouter>
          </ShellContext.Provider>
        </ServicesContext.Provider>
      </I18nextProvider>,
    );
  });
  const settle = async (test: () => boolean) => {
    for (let i = 0; i < 100 && !test(); i++) await act(async () => { await new Promise((r) => setTimeout(r, 10)); });
    expect(test()).toBe(true);
  };
  return { container: root.container, calls: s.calls, goTos, settle };
}

const q = (c: HTMLElement, sel: string) => c.querySelector<HTMLElement>(sel);

describe('the traceability map screen', () => {
  it('traces the start in the address: the boundary notice, what it reached in words, the nodes opening where features show them', async () => {
    const { container, calls, goTos, settle } = await mountScreen('map', '/?lot=AI-1&material=m-ai', { '/api/v3/trace?': ANSWER });
    await settle(() => q(container, '[data-testid=trace-map-view]')?.dataset.state === 'ready');
    expect(calls).toContain('/api/v3/trace?lot=AI-1&material=m-ai');
    expect(q(container, '[data-testid=trace-boundary]')!.textContent).toContain('2 links leave it for deposits outside Plant');
    expect(q(container, '[data-testid=trace-sum-customers] dd')!.textContent).toBe('Campo Verde');
    expect(q(container, '[data-testid=trace-sum-countries] dd')!.textContent).toBe('China');
    const nodes = [...container.querySelectorAll<HTMLElement>('[data-testid=trace-node]')];
    expect(nodes.map((n) => n.dataset.kind)).toEqual(['lot', 'lot', 'operation', 'operation', 'operation', 'ibc', 'deposit']);
    expect(nodes.find((n) => n.dataset.start)!.textContent).toContain('AI-1');
    expect(nodes.find((n) => n.textContent!.includes('R-0001'))!.textContent).toContain('Beyond your access: 2');
    await act(async () => { nodes.find((n) => n.textContent!.includes('R-0001'))!.querySelector('a')!.click(); });
    expect(goTos).toEqual([{ type: 'deliveries', query: { id: 'dl' } }]);
    expect(nodes.find((n) => n.dataset.kind === 'deposit')!.querySelector('a')).toBeNull();
    await act(async () => { q(container, '[data-testid=trace-open-events]')!.click(); });
    expect(goTos[1]).toEqual({ type: 'events', query: { lot: 'AI-1', material: 'm-ai' } });
  });

  it('a start that names nothing says so in the user\'s language', async () => {
    const { container, settle } = await mountScreen('map', '/?lot=NOPE', {});
    await settle(() => q(container, '[data-testid=trace-error]') !== null);
    expect(q(container, '[data-testid=trace-node]')).toBeNull();
  });
});

describe('the events and history screens', () => {
  const ROW = { event: 'urn:uuid:1', type: 'ObjectEvent', time: '2025-03-03T10:00:00.000Z', date: '2025-03-03', bizStep: 'shipping', disposition: 'in_transit', role: '', material: 'Glyphosate 48 SL', gtin: '', lot: 'P-1', ibc: '', quantity: 1000, unit: 'L', from: 'Plant', to: 'Beyond your access', document: 'R-0001', operation: 'Delivery', transition: 'Confirm', workflow: 'delivery', record: 'dl' };

  it('lists every event without a trace, sorted by the server on the columns it sorts, a document opening its operation', async () => {
    const { container, calls, goTos, settle } = await mountScreen('events', '/', { '/api/v3/trace/events?': { data: [ROW], total: 1, page: 1, pageSize: 20 } });
    await settle(() => container.querySelectorAll('[data-testid=list-row]').length === 1);
    expect(q(container, '[data-testid=trace-events-view]')!.dataset.mode).toBe('all');
    expect(calls).toContain('/api/v3/trace/events?page=1&pageSize=20');
    expect(q(container, 'th[data-column=lot]')!.className).not.toContain('p-sortable-column');
    await act(async () => { q(container, 'th[data-column=time]')!.click(); });
    await settle(() => calls.some((c) => /sort=-?time/.test(c)));
    await act(async () => { q(container, '[data-testid=trace-event-document]')!.click(); });
    expect(goTos).toEqual([{ type: 'deliveries', query: { id: 'dl' } }]);
  });

  it('lists the events of a trace with every column sortable and its boundary', async () => {
    const { container, calls, settle } = await mountScreen('events', '/?shipment=R-0001', {
      '/api/v3/trace/events?': { data: [ROW], total: 1, page: 1, pageSize: 20, boundary: { links: 1, nodes: 1, warehouse: 'Plant' } },
    });
    await settle(() => container.querySelectorAll('[data-testid=list-row]').length === 1);
    expect(calls[0]).toBe('/api/v3/trace/events?shipment=R-0001&page=1&pageSize=20');
    expect(q(container, 'th[data-column=lot]')!.className).toContain('p-sortable-column');
    expect(q(container, '[data-testid=trace-boundary]')).not.toBeNull();
    expect(q(container, '[data-testid=list-row] td[data-column=to]')!.textContent).toBe('Beyond your access');
  });

  it('shows a lot\'s steps in time order with the stock after each, and what lies beyond the group', async () => {
    const history = {
      lot: { material: 'm-p', materialName: 'Glyphosate 48 SL', lot: 'P-1', expirationDate: '2027-03-02' },
      steps: [
        { at: '2025-03-02T10:00:00Z', date: '2025-03-02', workflow: 'product_declaration', operation: 'Product declaration', record: 'pd', document: 'PD-1', transition: 'Declare', deposit: 'd', depositName: 'Plant', quantity: 2000, unit: 'L', balance: 2000 },
        { at: '2025-03-03T10:00:00Z', date: '2025-03-03', workflow: 'delivery', operation: 'Delivery', record: 'dl', document: 'R-0001', transition: 'Confirm', deposit: 'd', depositName: 'Plant', quantity: -1000, unit: 'L', balance: 1000 },
      ],
      beyond: 1, warehouse: 'Plant',
    };
    const { container, calls, settle } = await mountScreen('history', '/?lot=P-1&material=m-p', { '/api/v3/trace/history?': history });
    await settle(() => q(container, '[data-testid=trace-history-view]')?.dataset.state === 'ready');
    expect(calls).toContain('/api/v3/trace/history?lot=P-1&material=m-p');
    expect([...container.querySelectorAll('[data-testid=trace-history-step]')].map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['2025-03-02', 'Product declaration', 'PD-1', 'Declare', 'Plant', '+2,000', 'L', '2,000'],
      ['2025-03-03', 'Delivery', 'R-0001', 'Confirm', 'Plant', '-1,000', 'L', '1,000'],
    ]);
    expect(q(container, '[data-testid=trace-boundary]')!.textContent).toContain('Deposits outside Plant that hold or held this lot, not shown: 1');
  });
});

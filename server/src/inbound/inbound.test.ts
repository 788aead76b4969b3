/**
 * /inbound-messages (issue 18 item 4): an integration records what it received through the
 * API (validated, access-checked), a capability through recordInbound, and the report
 * get_inbound_messages the screen draws lists them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { INBOUND, recordInbound } from './service';

let h: Harness;
let integrator: Record<string, string>;
beforeAll(async () => {
  h = await startHarness();
  integrator = (await h.userWith(['Inbound Messages'])).headers;
});
afterAll(async () => h?.close());

const post = (payload: unknown, headers = integrator) => h.app.inject({ method: 'POST', url: '/api/v3/inbound-messages', headers, payload: payload as object });

describe('POST /api/v3/inbound-messages', () => {
  it('records a message, its summary made from the payload when none is given', async () => {
    const r = await post({ source: 'authority', kind: 'confirmation', reference: 'TX-77', payload: { transactionId: 'TX-77', accepted: true } });
    expect(r.statusCode, r.body).toBe(201);
    const body = r.json() as Record<string, string>;
    expect(body).toMatchObject({ source: 'authority', kind: 'confirmation', reference: 'TX-77', status: 'received', summary: '{"transactionId":"TX-77","accepted":true}' });
    expect(Date.parse(body.at)).toBeGreaterThan(Date.now() - 60_000);
    const stored = await h.store.get(INBOUND, body.id);
    expect(stored).toMatchObject({ source: 'authority', kind: 'confirmation', status: 'received' });
    expect(stored).not.toHaveProperty('payload');
  });

  it.each([
    ['no source', { kind: 'alert' }],
    ['an empty kind', { source: 'authority', kind: '' }],
    ['an unknown status', { source: 'authority', kind: 'alert', status: 'lost' }],
    ['a date that is not one', { source: 'authority', kind: 'alert', at: 'yesterday' }],
    ['a reference too long', { source: 'authority', kind: 'alert', reference: 'x'.repeat(201) }],
    ['a body that is not an object', ['authority']],
  ])('answers 400 for %s and records nothing', async (_name, payload) => {
    const before = await h.store.count(INBOUND);
    const r = await post(payload);
    expect(r.statusCode, r.body).toBe(400);
    expect((r.json() as { error: { code: string } }).error.code).toBeTruthy();
    expect(await h.store.count(INBOUND)).toBe(before);
  });

  it('is written by the server only: the master-data API neither creates one nor changes what one says', async () => {
    const made = await recordInbound(h.store, { source: 'authority', kind: 'alert', reference: 'A-1', summary: 'as sent' });
    const before = await h.store.count(INBOUND);
    const created = await h.app.inject({ method: 'POST', url: `/api/v3/masterdata/${INBOUND}`, headers: integrator, payload: { at: made.at, source: 'forged', kind: 'alert', status: 'received' } });
    expect(created.statusCode).toBe(400);
    expect(await h.store.count(INBOUND)).toBe(before);
    const { id: _id, createdAt: _c, updatedAt: _u, createdBy: _cb, updatedBy: _ub, ...rest } = made;
    const edited = await h.app.inject({ method: 'PUT', url: `/api/v3/masterdata/${INBOUND}/${made.id}`, headers: integrator, payload: { ...rest, source: 'forged', summary: 'changed' } });
    expect(edited.statusCode).toBe(400);
    expect(await h.store.get(INBOUND, made.id)).toMatchObject({ source: 'authority', summary: 'as sent' });
  });

  it('refuses anonymous callers and users without the Inbound Messages key', async () => {
    const before = await h.store.count(INBOUND);
    expect((await post({ source: 'authority', kind: 'alert' }, {})).statusCode).toBe(401);
    const r = await post({ source: 'authority', kind: 'alert' }, (await h.userWith(['Monitoring', 'Alerts'])).headers);
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ error: { params: { key: 'Inbound Messages' } } });
    expect(await h.store.count(INBOUND)).toBe(before);
  });
});

describe('the report get_inbound_messages', () => {
  it('lists what was recorded, newest first, filtered by status, to holders of its key only', async () => {
    await recordInbound(h.store, { source: 'authority', kind: 'rejection', reference: 'R-1', summary: 'Partial rejection: 2 of 5', status: 'failed', error: 'unknown lot', at: '2026-01-02T10:00:00.000Z' });
    await recordInbound(h.store, { source: 'erp', kind: 'order', reference: 'PO-9', at: '2026-01-03T10:00:00.000Z' });
    const r = await h.app.inject({ method: 'GET', url: '/api/v3/reports/get_inbound_messages/rows?pageSize=50', headers: integrator });
    expect(r.statusCode, r.body).toBe(200);
    const rows = (r.json() as { data: Record<string, unknown>[] }).data;
    expect(rows.length).toBe(await h.store.count(INBOUND));
    expect(rows.map((x) => x.at)).toEqual([...rows.map((x) => x.at)].sort().reverse());
    expect(rows).toContainEqual(expect.objectContaining({ source: 'authority', kind: 'rejection', reference: 'R-1', summary: 'Partial rejection: 2 of 5', status: 'failed', error: 'unknown lot' }));

    const failed = await h.app.inject({ method: 'GET', url: '/api/v3/reports/get_inbound_messages/rows?status=failed', headers: integrator });
    expect((failed.json() as { data: { reference: string }[] }).data.map((x) => x.reference)).toEqual(['R-1']);

    const refused = await h.app.inject({ method: 'GET', url: '/api/v3/reports/get_inbound_messages/rows', headers: (await h.userWith(['Reports'])).headers });
    expect(refused.statusCode).toBe(403);
  });

  it('is the /inbound-messages screen, and stays out of the SPEC 3.5 catalogue', () => {
    const feature = h.registry.features.features.find((f) => f.id === 'inbound-messages');
    expect(feature?.report).toEqual({ view: 'single', key: 'get_inbound_messages' });
    expect(h.registry.reports.get_inbound_messages.category).toBe('monitoring');
  });
});

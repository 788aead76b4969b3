import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { startHarness, type Harness } from '../testing/harness';
import { authRoutes } from '../routes/auth';
import { collectRoutes, ESCALATIONS, walkAccessMatrix, walkEscalations, type MatrixSubjects } from './accessMatrix';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const subjectsOf = (harness: Harness): MatrixSubjects => ({
  user: async (access, extra) => (await harness.userWith(access, extra)).headers,
});

describe('the access matrix over every registered route', () => {
  it('finds the routes of every plugin, hidden ones included', () => {
    const urls = new Set(collectRoutes(h.app).map((r) => `${r.method} ${r.url}`));
    for (const r of ['POST /api/auth/sign-in', 'GET /api/auth/validate', 'GET /api/customer/groups', 'PUT /api/auth/profile', 'POST /api/auth/provider/saml/callback',
      'GET /api/v3/masterdata/material/:id', 'GET /api/v3/masterdata/:entity', 'GET /api/openapi.json', 'GET /api/public/checkOrganizationAccountStatus']) {
      expect(urls, r).toContain(r);
    }
    expect(urls.size).toBeGreaterThan(150);
  });

  // Every route, several callers each: on the MongoDB wire server on a loaded machine the walk
  // has taken over 30 s, the suite's default.
  it('answers 401 anonymous, 403 without the key, and lets the key holder, the superadmin and the right warehouse group through', async () => {
    const { rows, problems } = await walkAccessMatrix(h.app, h.registry, h.store, subjectsOf(h));
    expect(problems).toEqual([]);
    // What the matrix saw, so a change of policy shows up in review.
    const keyed = rows.filter((r) => typeof r.key === 'string' && r.key !== 'public');
    expect(keyed.length).toBeGreaterThan(100);
    expect(rows.find((r) => r.method === 'GET' && r.url === '/api/v3/masterdata/user')).toMatchObject({ anonymous: 401, withoutKey: 403, key: 'User Management', withKey: 200, superadmin: 200 });
    expect(rows.find((r) => r.method === 'GET' && r.url === '/api/customer/groups')).toMatchObject({ anonymous: 401, withoutKey: 200, key: null });
    expect(rows.find((r) => r.method === 'POST' && r.url === '/api/auth/sign-in')).toMatchObject({ key: 'public' });
    // Deliveries are read by the sender and by the screens of the receiver (each key on its own, checked above).
    for (const url of ['/api/v3/operations/delivery', '/api/v3/operations/delivery/:id']) {
      expect(rows.find((r) => r.method === 'GET' && r.url === url)?.keys).toEqual(['Deliveries', 'Reception', 'Active Receptions']);
    }
    expect(rows.find((r) => r.method === 'POST' && r.url === '/api/v3/operations/delivery')?.keys).toEqual(['Deliveries']);
    expect(rows.find((r) => r.method === 'POST' && r.url === '/api/v3/operations/delivery/:id/transitions/acceptAll')?.keys).toEqual(['Reception']);
  }, 120_000);

  it('lets no holder of the user or group management keys make anyone superadmin or take over the superadmin', async () => {
    const { problems, tried } = await walkEscalations(h.app, h.registry, h.store, h.userWith);
    expect(problems).toEqual([]);
    // User Management, Group Management, and both together, each trying every escalation.
    expect(tried).toBe(ESCALATIONS.length * 3);
  });
});

describe('the matrix itself', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // The harness's store and sessions under an app with deliberately wrong routes.
    app = await buildApp({
      registry: h.registry, store: h.store, authenticator: h.sessions,
      plugins: [
        (a) => authRoutes(a, { registry: h.registry, store: h.store, sessions: h.sessions }),
        async (a) => {
          a.get('/api/probe/undeclared', async () => ({ ok: true }));
          a.get('/api/probe/accidentally-public', { config: { public: true } }, async () => ({ ok: true }));
          a.get('/api/probe/imports', { config: { access: 'Imports', customerModule: true } }, async () => ({ ok: true }));
          // Customer-module keys are narrowed by default; only an explicit opt-out escapes it.
          a.get('/api/probe/imports-not-narrowed', { config: { access: 'Imports', customerModule: false } }, async () => ({ ok: true }));
          a.get('/api/probe/imports-by-default', { config: { access: 'Imports' } }, async () => ({ ok: true }));
          // A careless route that hands out superadmin, for the escalation walk to catch.
          a.post('/api/probe/promote', { config: { access: 'User Management' } }, async (request) =>
            h.store.patch('user', request.principal!.userId, { access: [h.registry.access.superadmin] }));
        },
      ],
    });
    await app.ready();
  });
  afterAll(async () => { await app.close(); });

  it('fails on a route that declares no access, on an unplanned public route, and on a customer-module key not narrowed by the warehouse', async () => {
    const { rows, problems } = await walkAccessMatrix(app, h.registry, h.store, subjectsOf(h));
    expect([...problems].sort()).toEqual([
      'GET /api/probe/accidentally-public: answers 200 without sign-in but is not meant to be public',
      'GET /api/probe/imports-not-narrowed: "Imports" is a customer-module key but the selected warehouse group does not narrow it (200)',
      'GET /api/probe/undeclared: declares neither public nor an access key',
      'HEAD /api/probe/accidentally-public: answers 200 without sign-in but is not meant to be public',
      'HEAD /api/probe/imports-not-narrowed: "Imports" is a customer-module key but the selected warehouse group does not narrow it (200)',
      'HEAD /api/probe/undeclared: declares neither public nor an access key',
    ]);
    // A customer-module route done right: 403 when the selected group's pool lacks the key, through when it holds it.
    expect(rows.find((r) => r.method === 'GET' && r.url === '/api/probe/imports')).toEqual({
      method: 'GET', url: '/api/probe/imports', anonymous: 401, withoutKey: 403, key: 'Imports', keys: ['Imports'], withKey: 200, superadmin: 200, warehouseScoped: 403, warehouseAllowed: 200,
    });
  }, 120_000); // the walk signs in users for every route: 15 s on the wire server, 30 s beside another test file

  it('catches a route through which a key holder makes themselves superadmin', async () => {
    const { problems } = await walkEscalations(app, h.registry, h.store, h.userWith, [{ name: 'promote themselves', request: () => ({ method: 'POST', url: '/api/probe/promote', payload: {} }) }]);
    expect(problems.filter((p) => p.includes('"promote themselves" answered 200'))).toEqual([
      'holder of User Management: "promote themselves" answered 200',
      'holder of User Management + Group Management: "promote themselves" answered 200',
    ]);
    expect(problems.filter((p) => p.endsWith('holds superadmin after the escalation attempts'))).toHaveLength(2);
  });
});

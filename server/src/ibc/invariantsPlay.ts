/**
 * The player of the IBC property test (invariants.test.ts): one random sequence of IBC
 * operations, played through the HTTP routes as a superadmin, on master data of its own (so
 * runs share one server and store without seeing each other's records).
 */
import fc from 'fast-check';
import type { Harness } from '../testing/harness';
import { dayOf, IBC_ENTITY, refreshAdrDates } from './dates';
import { IBC_EVENT } from './summary';

type Rec = Record<string, unknown>;

const DIRECT = ['startQC', 'passQC', 'inspect', 'quarantine', 'block', 'dispose', 'return', 'transfer'] as const;
const MATERIALS = ['rigid_plastic', 'composite', 'metal'] as const;

/** What a sequence asks for; indices pick among what exists when the step runs (modulo). */
export type IbcStep =
  | { kind: 'register'; madeDaysAgo: number; inspectedAfter: number | null; material: number; deposit: number }
  | { kind: 'prepare'; deposit: number; picks: number[]; quantity: number }
  | { kind: 'deliver'; deposit: number; customer: number; picks: number[] }
  | { kind: 'receive'; delivery: number; apt: boolean; transporter: boolean }
  | { kind: 'request'; customer: number; picks: number[]; full: boolean; returnTo: number }
  | { kind: 'withdraw'; request: number; apt: boolean }
  | { kind: 'returned'; request: number; apt: boolean }
  | { kind: 'direct'; ibc: number; apt: boolean; transition: (typeof DIRECT)[number]; deposit: number }
  | { kind: 'qc'; ibc: number; outcome: 'passQC' | 'inspect' | 'quarantine' | 'block' }
  | { kind: 'any'; ibc: number; transition: number };

// Picks index the IBCs where the operation could apply (most of the time) or any of the run's.
const picks = fc.record({ apt: fc.boolean(), at: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }) }).map((x) => (x.apt || x.at[0] % 5 !== 0 ? x.at : x.at.map((i) => -1 - i)));
// Weighted so that most runs get IBCs to customers and back; manufacture dates over 7 years, so
// some are past their end of life and many past an inspection.
export const ibcStep: fc.Arbitrary<IbcStep> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('register' as const), madeDaysAgo: fc.integer({ min: 0, max: 2600 }), inspectedAfter: fc.option(fc.integer({ min: 0, max: 1800 })), material: fc.nat(2), deposit: fc.nat(1) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('prepare' as const), deposit: fc.nat(1), picks, quantity: fc.integer({ min: 100, max: 1500 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('deliver' as const), deposit: fc.nat(1), customer: fc.nat(1), picks }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('receive' as const), delivery: fc.nat(), apt: fc.boolean(), transporter: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('request' as const), customer: fc.nat(1), picks, full: fc.boolean(), returnTo: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), request: fc.nat(), apt: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('returned' as const), request: fc.nat(), apt: fc.boolean() }) },
  { weight: 7, arbitrary: fc.record({ kind: fc.constant('direct' as const), ibc: fc.nat(), apt: fc.boolean(), transition: fc.constantFrom(...DIRECT), deposit: fc.nat(1) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('qc' as const), ibc: fc.nat(), outcome: fc.constantFrom('passQC' as const, 'inspect' as const, 'quarantine' as const, 'block' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('any' as const), ibc: fc.nat(), transition: fc.nat() }) },
);

export interface RunWorld {
  /** The run's own deposits (two) and its customers, each with one deposit. */
  own: string[];
  customers: { id: string; deposit: string }[];
  lots: string[];
  ibcs: { id: string; serial: string; registered: Rec }[];
  /** QC inspections that went through: the passQC log row and the inspection date. */
  inspections: { record: string; row: string; qcDate: string }[];
}

/** Plays `steps` on fresh master data named by `p`; refusals (4xx) are noted, a 5xx fails the run. */
export async function ibcRun(h: Harness, headers: Record<string, string>, p: string, steps: IbcStep[], note: (k: string) => void): Promise<RunWorld> {
  const { store, registry } = h;
  const today = dayOf(new Date());
  const w: RunWorld = { own: [`${p}-d1`, `${p}-d2`], customers: [{ id: `${p}-c1`, deposit: `${p}-c1d` }, { id: `${p}-c2`, deposit: `${p}-c2d` }], lots: [`${p}-L1`, `${p}-L2`], ibcs: [], inspections: [] };
  const material = `${p}-fg`;
  await store.insert('units_of_measurement', { id: `${p}-l`, unit_name: 'Litro', state: 1 });
  await store.insert('material', { id: material, name: `Producto ${p}`, uom: `${p}-l`, state: 1 });
  await store.insertMany('company', [`${p}-own`, ...w.customers.map((c) => c.id)].map((id) => ({ id, company_name: id, state: 1 })));
  await store.insert('plant', { id: `${p}-plant`, name: `Planta ${p}`, company: `${p}-own`, state: 1 });
  await store.insertMany('company_division', [
    ...w.own.map((id) => ({ id, division_name: id, division_type: 'deposit', company_id: `${p}-own`, state: 1 })),
    ...w.customers.map((c) => ({ id: c.deposit, division_name: c.deposit, division_type: 'deposit', company_id: c.id, state: 1 })),
  ]);

  const send = async (method: 'POST' | 'GET', url: string, payload?: Rec) => {
    const r = await h.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    if (r.statusCode >= 500) throw new Error(`${method} ${url} answered ${r.statusCode}: ${r.body}`);
    if (r.statusCode >= 400) note(`refused ${(r.json() as { error?: { code?: string } }).error?.code ?? r.statusCode}`);
    return r.statusCode < 300 ? (r.json() as Rec) : null;
  };
  const ops = (wf: string) => `/api/v3/operations/${wf}`;
  const ids: Record<string, string[]> = { ibc_delivery: [], return_request: [] };
  let n = 0;
  /** Creates an operation and takes its first transition. */
  const operation = async (wf: string, body: Rec, transition: string) => {
    const created = await send('POST', ops(wf), body);
    if (!created) return;
    if (wf in ids) ids[wf].push(String(created.id));
    await send('POST', `${ops(wf)}/${String(created.id)}/transitions/${transition}`, {});
  };
  /** The IBCs a pick chooses from: a non-negative pick, among those matching `apt`; a negative one, among all. */
  const lines = async (xs: number[], apt: Rec) => {
    const fit = (await store.find(IBC_ENTITY, { filter: { id: { $in: w.ibcs.map((i) => i.id) }, ...apt }, sort: { serial_number: 1 } })).map((d) => d.id);
    return [...new Set(xs.map((x) => (x >= 0 && fit.length ? fit[x % fit.length] : w.ibcs[(x >= 0 ? x : -1 - x) % w.ibcs.length].id)))]
      .map((id) => ({ ibc: id, ibcNumber: w.ibcs.find((i) => i.id === id)!.serial }));
  };
  const at = <T>(xs: T[], i: number) => xs[i % xs.length];
  /** One of the run's operations of `wf`: when `apt`, among those in `state` (if any). */
  const pickOp = async (wf: 'ibc_delivery' | 'return_request', i: number, apt: boolean) => {
    const def = registry.workflows[wf];
    const fit = apt ? (await store.find(def.entity, { filter: { id: { $in: ids[wf] }, [def.stateField]: wf === 'ibc_delivery' ? 'In-Progress' : 'Requested' }, sort: { id: 1 } })).map((d) => d.id) : [];
    return at(fit.length ? fit : ids[wf], i);
  };

  const register = async (s: Extract<IbcStep, { kind: 'register' }>) => {
    const made = dayOf(new Date(), -s.madeDaysAgo);
    const inspected = s.inspectedAfter !== null && s.inspectedAfter <= s.madeDaysAgo ? dayOf(new Date(), s.inspectedAfter - s.madeDaysAgo) : undefined;
    const registered: Rec = { manufactured_date: made, material_type: MATERIALS[s.material], ...(inspected ? { lastInspectionDate: inspected } : {}) };
    const serial = `${p}-IBC-${++n}`;
    const rec = await send('POST', `/api/v3/masterdata/${IBC_ENTITY}`, { serial_number: serial, deposit_id: at(w.own, s.deposit), company_id: `${p}-own`, capacity: 1000, state: 1, ...registered });
    if (rec) w.ibcs.push({ id: String(rec.id), serial, registered });
  };

  // Stock to fill from at both deposits, and two young IBCs at each, so every run gets somewhere.
  for (const [i, deposit] of w.own.entries()) {
    await operation('product_import', { importDate: today, importID: `${p}-IMP${i}`, deposit, productData: [{ material, batchId: w.lots[i], quantity: 4000, uom: `${p}-l`, expirationDate: '2030-01-01' }] }, 'confirm');
  }
  for (const deposit of [0, 0, 1, 1]) await register({ kind: 'register', madeDaysAgo: 100, inspectedAfter: null, material: 0, deposit });
  // The server's ADR pass (at start and every 6 hours) dates IBCs registered before a write path did.
  const adrPass = () => refreshAdrDates(store, registry.deployment.settings.ibc);
  await adrPass();

  /** One ibc transition on one IBC, with what it takes (a QC's date, a disposal's comment, a deposit). */
  const direct = async (id: string, transition: (typeof DIRECT)[number], deposit: number) => {
    const qc = { qcDate: today, qcResult: 'random', performedBy: 'property' };
    const body: Record<(typeof DIRECT)[number], Rec> = {
      startQC: {}, passQC: { fields: qc }, inspect: { fields: { ...qc, inspection: true } }, quarantine: { fields: qc }, block: { fields: qc },
      dispose: { comment: 'random' }, return: { fields: { deposit_id: at(w.own, deposit), returnState: 'empty' } }, transfer: { fields: { deposit_id: at(w.own, deposit) } },
    };
    const done = await send('POST', `${ops('ibc')}/${id}/transitions/${transition === 'inspect' ? 'passQC' : transition}`, body[transition]);
    if (done && transition === 'inspect') {
      const [row] = await store.find(IBC_EVENT, { filter: { record: id, transition: 'passQC' }, sort: { id: -1 }, limit: 1 });
      w.inspections.push({ record: id, row: row.id, qcDate: today });
    }
  };

  for (const s of steps) {
    switch (s.kind) {
      case 'register':
        await register(s);
        await adrPass();
        break;
      case 'prepare': {
        const deposit = at(w.own, s.deposit);
        const lot = w.lots[w.own.indexOf(deposit)];
        await operation('ibc_batch_preparation', {
          batchNumber: `${p}-B${++n}`, preparedDate: today, deposit, productionPlant: `${p}-plant`, sourceMaterial: material, sourceBatch: lot, material, batchId: lot, uom: `${p}-l`,
          containers: (await lines(s.picks, { deposit_id: deposit, status: 'in_stock_empty' })).map((l, k) => ({ ...l, quantity: s.quantity, topSeal: `T${n}-${k}`, bottomSeal: `B${n}-${k}` })),
        }, 'confirm');
        break;
      }
      case 'deliver': {
        const c = at(w.customers, s.customer);
        const deposit = at(w.own, s.deposit);
        await operation('ibc_delivery', { sendDate: today, shipmentID: `${p}-S${++n}`, deposit, receiverDeposit: c.deposit, receiver: c.id, receiverCompanyType: 'customer', containers: await lines(s.picks, { deposit_id: deposit, status: 'prepared' }) }, 'confirm');
        break;
      }
      case 'receive':
        if (ids.ibc_delivery.length) await send('POST', `${ops('ibc_delivery')}/${await pickOp('ibc_delivery', s.delivery, s.apt)}/transitions/${s.transporter ? 'receiveByTransporter' : 'receive'}`, { fields: { receivedDate: today } });
        break;
      case 'request': {
        const c = at(w.customers, s.customer);
        await operation('return_request', { requestNumber: `${p}-RR${++n}`, requestDate: today, customer: c.id, deposit: c.deposit, returnTo: at(w.own, s.returnTo), returnState: s.full ? 'full' : 'empty', containers: await lines(s.picks, { customer: c.id, status: 'at_customer' }) }, 'request');
        break;
      }
      case 'withdraw':
      case 'returned':
        if (ids.return_request.length) await send('POST', `${ops('return_request')}/${await pickOp('return_request', s.request, s.apt)}/transitions/${s.kind === 'withdraw' ? 'withdraw' : 'receive'}`, {});
        break;
      case 'direct': {
        const t = s.transition === 'inspect' ? 'passQC' : s.transition;
        const from = registry.workflows.ibc.transitions.find((x) => x.id === t)!.from;
        const [line] = await lines([s.apt ? s.ibc : -1 - s.ibc], { status: { $in: from } });
        await direct(line.ibc, s.transition, s.deposit);
        break;
      }
      case 'qc': {
        // A QC from the return: started when the IBC is just back, then its outcome.
        const [line] = await lines([s.ibc], { status: { $in: ['returned', 'in_qc', 'quarantine'] } });
        if ((await store.get(IBC_ENTITY, line.ibc))?.status === 'returned') await direct(line.ibc, 'startQC', 0);
        await direct(line.ibc, s.outcome, 0);
        break;
      }
      case 'any': {
        const wf = registry.workflows.ibc;
        const t = at(wf.transitions, s.transition);
        // Every other step sends no input: the definitions must refuse what it leaves out (a ship
        // naming nowhere, a return or reception naming no deposit). Half the returns and ships name
        // where, so those transitions are also taken, not only refused.
        const named = s.ibc % 2 === 0;
        const fields = !named ? {} : t.id === 'return' ? { deposit_id: at(w.own, s.ibc) } : t.id === 'ship' ? { inTransitTo: at(w.customers, s.ibc).deposit } : {};
        await send('POST', `${ops('ibc')}/${at(w.ibcs, s.ibc).id}/transitions/${t.id}`, { comment: 'random', fields });
        break;
      }
    }
  }
  return w;
}

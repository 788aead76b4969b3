/**
 * An IBC's ADR dates are current the moment it is written, by whatever writes it: registered in
 * master data, imported from a CSV file, or inspected by a QC (passQC with `inspection`), so the
 * fill's refuse rules, which read the stored dates, never judge an IBC on stale ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../testing/harness';
import { multipart } from '../imports/testing/harness';
import { WriteHooks } from '../records/writeHooks';
import { addMonths, dayOf, IBC_ENTITY } from './dates';

let h: Harness;
let staff: Record<string, string>;
let deposit: string;
const TODAY = dayOf(new Date());

beforeAll(async () => {
  h = await startHarness();
  staff = (await h.userWith(['Master Data', 'Data Import', 'Perform QC'])).headers;
  const company = await h.store.insert('company', { company_name: 'Agro SA', state: 1 });
  deposit = (await h.store.insert('company_division', {
    division_name: 'Plant deposit', division_type: 'deposit', senasa_id_type: 'x', erp_id: 'DEP-1', company_id: company.id, country: 'AR', state: 1,
  })).id;
});
afterAll(async () => { await h?.close(); });

describe('the write-hook registry', () => {
  it('applies every derivation registered for the entity, removes what one derives as undefined, and leaves other entities alone', () => {
    const hooks = new WriteHooks();
    hooks.register('box', (r) => ({ area: (r.w as number) * (r.h as number) }));
    hooks.register('box', (r) => (r.area === 0 ? { area: undefined } : null));
    const rec = { w: 2, h: 3 };
    expect(hooks.apply('box', rec)).toEqual({ w: 2, h: 3, area: 6 });
    expect(rec).toEqual({ w: 2, h: 3 });
    expect(hooks.apply('box', { w: 0, h: 3, area: 9 })).toEqual({ w: 0, h: 3 });
    const other = { w: 1 };
    expect(hooks.apply('crate', other)).toBe(other);
  });
});

describe('ADR dates on write', () => {
  it('an IBC registered through master data has its dates at once, whatever the body says of them', async () => {
    const r = await h.app.inject({
      method: 'POST', url: '/api/v3/masterdata/ibc_container', headers: staff,
      payload: { serial_number: 'MD-1', manufactured_date: '2024-05-10', material_type: 'composite', deposit_id: deposit, state: 1, nextInspectionDate: '2099-01-01' },
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({ nextInspectionDate: '2026-11-10', endOfLife: '2029-05-10', status: 'in_stock_empty' });
    expect(await h.store.get(IBC_ENTITY, r.json().id)).toMatchObject({ nextInspectionDate: '2026-11-10', endOfLife: '2029-05-10' });
    // An edit moving the last inspection moves the next one; a metal IBC has no end of life.
    const edited = await h.app.inject({
      method: 'PUT', url: `/api/v3/masterdata/ibc_container/${r.json().id}`, headers: staff,
      payload: { serial_number: 'MD-1', manufactured_date: '2024-05-10', material_type: 'metal', lastInspectionDate: '2025-01-20', deposit_id: deposit, state: 1 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().nextInspectionDate).toBe('2027-07-20');
    expect(edited.json()).not.toHaveProperty('endOfLife');
  });

  it('an IBC imported from a CSV file has its dates at once; one updated by a later file too', async () => {
    const importCsv = async (rows: string[]) => {
      const body = multipart({ entity: 'ibc_container' }, { name: 'ibcs.csv', content: `serial_number,manufactured_date,material_type,deposit_id,state\n${rows.join('\n')}\n` });
      const r = await h.app.inject({ method: 'POST', url: '/api/imports', headers: { ...staff, ...body.headers }, payload: body.payload });
      expect(r.statusCode, r.body).toBe(202);
      for (let i = 0; i < 200; i++) {
        const job = (await h.app.inject({ url: `/api/imports/${r.json().id}`, headers: staff })).json();
        if (['succeeded', 'failed', 'rolled_back'].includes(job.status)) return job;
        await new Promise((res) => setTimeout(res, 25));
      }
      throw new Error('the import did not finish');
    };
    expect((await importCsv(['CSV-1,2023-02-28,rigid_plastic,DEP-1,1', 'CSV-2,,rigid_plastic,DEP-1,1'])).status).toBe('succeeded');
    const [one] = await h.store.find(IBC_ENTITY, { filter: { serial_number: 'CSV-1' } });
    expect(one).toMatchObject({ nextInspectionDate: '2025-08-28', endOfLife: '2028-02-28' });
    const [two] = await h.store.find(IBC_ENTITY, { filter: { serial_number: 'CSV-2' } });
    expect(two).not.toHaveProperty('nextInspectionDate');
    expect((await importCsv(['CSV-2,2024-01-31,rigid_plastic,DEP-1,1'])).counts).toMatchObject({ update: 1 });
    expect(await h.store.get(IBC_ENTITY, two.id)).toMatchObject({ nextInspectionDate: '2026-07-31', endOfLife: '2029-01-31' });
  });

  it('a QC recording an inspection moves the next inspection 30 months from the QC date at once', async () => {
    const made = addMonths(TODAY, -29)!;
    const ibc = await h.app.inject({ method: 'POST', url: '/api/v3/masterdata/ibc_container', headers: staff, payload: { serial_number: 'QC-1', manufactured_date: made, material_type: 'rigid_plastic', deposit_id: deposit, state: 1 } });
    const id = ibc.json().id as string;
    expect(ibc.json().nextInspectionDate).toBe(addMonths(made, 30));
    await h.store.patch(IBC_ENTITY, id, { status: 'in_qc' });
    const qcDate = TODAY;
    const r = await h.app.inject({ method: 'POST', url: `/api/v3/operations/ibc/${id}/transitions/passQC`, headers: staff, payload: { fields: { qcDate, qcResult: 'hydraulic test passed', performedBy: 'Inspector', inspection: true } } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().record).toMatchObject({ status: 'in_stock_empty', lastInspectionDate: qcDate, nextInspectionDate: addMonths(qcDate, 30), endOfLife: addMonths(made, 60) });
    expect((await h.store.get(IBC_ENTITY, id))!.nextInspectionDate).toBe(addMonths(qcDate, 30));
  });
});

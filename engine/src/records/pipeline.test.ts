import { describe, expect, it } from 'vitest';
import { fixtureRegistry } from '../testing/fixtures';
import { applyDefaults, prepareRecord, stampCreate, stampUpdate, stripBarred } from './pipeline';

const reg = fixtureRegistry();
const info = { companyInfo: { cuit: '30-71234567-1' } };
const errors = (r: { messages: { severity: string; message: string }[] }) => r.messages.filter((m) => m.severity === 'error').map((m) => m.message);

describe('the record pipeline', () => {
  it('fills defaults on create only, so validate and create agree', () => {
    const created = prepareRecord(reg, 'company', { company_name: 'A', extensions: info });
    expect(created).toMatchObject({ success: true, value: { state: 1 } });
    const stored = { id: 'C1', company_name: 'A', state: 1, extensions: info };
    expect(errors(prepareRecord(reg, 'company', { company_name: 'A', extensions: info }, { before: stored }))).toEqual(['State : A value is mandatory.']);
  });

  it('refuses a change to an immutable field on update, not the same value', () => {
    const stored = { id: 'C1', company_name: 'A', state: 1, extensions: info };
    expect(prepareRecord(reg, 'company', stored, { before: stored }).success).toBe(true);
    const changed = prepareRecord(reg, 'company', { ...stored, extensions: { companyInfo: { cuit: '30-99999999-9' } } }, { before: stored });
    expect(changed.success).toBe(false);
    expect(changed.messages).toContainEqual(expect.objectContaining({ field: 'extensions.companyInfo.cuit', code: 'FORMAT_IMMUTABLE', message: 'CUIT : cannot be changed after creation' }));
  });

  it('drops what a client never writes before validating', () => {
    const user = { name: 'user', fields: [], secretFields: ['password_hash'], serverFields: ['last_sign_in'] } as never;
    expect(stripBarred(user, { a: 1, password_hash: 'x', last_sign_in: 'y' })).toEqual({ a: 1 });
  });

  it('answers a bare string as a reference (SPEC 5), never as a record', () => {
    expect(prepareRecord(reg, 'company', 'C-1')).toMatchObject({ success: true, isReference: true, value: {} });
  });

  it('stamps system keys: a client cannot set them on create, and update keeps the creation stamp', () => {
    const def = reg.entities.company;
    const made = stampCreate(def, { company_name: 'A', id: 'forged', createdBy: 'forged' }, 'u1', 'T1');
    expect(made).toEqual({ company_name: 'A', createdAt: 'T1', updatedAt: 'T1', createdBy: 'u1', updatedBy: 'u1' });
    const before = { ...made, id: 'C1', extensions: { retired: { x: 1 } } };
    const updated = stampUpdate(reg, def, before, { company_name: 'B', id: 'C1', createdAt: 'forged' }, 'u2', 'T2');
    expect(updated).toEqual({ company_name: 'B', createdAt: 'T1', createdBy: 'u1', updatedAt: 'T2', updatedBy: 'u2', extensions: { retired: { x: 1 } } });
  });

  it('applyDefaults copies, leaving the given value as it was', () => {
    const given = { company_name: 'A' };
    expect(applyDefaults(reg.entities.company.fields, given)).toEqual({ company_name: 'A', state: 1 });
    expect(given).toEqual({ company_name: 'A' });
  });
});

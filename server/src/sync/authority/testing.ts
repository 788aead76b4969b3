/** Transactions for the authority's tests (and the outbox's): valid unless a test spoils them. */
import { expect } from 'vitest';
import { AuthorityUnavailable, type AuthorityTransaction } from './types';

export const FAKE_USER = 'tracemesh';
export const FAKE_PASSWORD = 'fake-authority-secret';

/** A declaration the fake accepts: a move of one lot between two deposits. */
export function sampleDeclaration(n: number, over: Partial<AuthorityTransaction> = {}): AuthorityTransaction {
  return {
    key: `delivery:rec-${n}:declare`,
    kind: 'declare',
    operation: 'delivery',
    recordId: `rec-${n}`,
    cuit: '30500010912',
    originGln: '7790000000017',
    destinationGln: '7790000000024',
    remito: `R-0001-${String(n).padStart(8, '0')}`,
    eventDate: '2026-03-01T10:00:00.000Z',
    lines: [{ gtin: '07790000000011', lot: `L${n}`, quantity: 20, productionDate: '2026-01-10', expiryDate: '2028-01-10' }],
    ...over,
  };
}

/** The receiver's answer to declaration `transactionId` of record n. */
export function sampleSettlement(kind: 'confirm' | 'reject', n: number, transactionId: string, over: Partial<AuthorityTransaction> = {}): AuthorityTransaction {
  return { ...sampleDeclaration(n), key: `delivery:rec-${n}:${kind}`, kind, transactionId, ...(kind === 'reject' ? { reason: 'damaged containers' } : {}), ...over };
}

/** Awaits a call that must throw AuthorityUnavailable, and hands the error over. */
export async function unavailable(p: Promise<unknown>): Promise<AuthorityUnavailable> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AuthorityUnavailable);
  return err as AuthorityUnavailable;
}

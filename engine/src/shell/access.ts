/** What the server knows of a signed-in user's access (SPEC 3.4, 6). */
export interface Principal {
  access: readonly string[];
  groups?: readonly { name: string; access: readonly string[] }[];
  /** The warehouse group the user selected, for customer-module features. */
  selectedWarehouse?: string | null;
}

export interface AccessRequirement {
  key?: string;
  customerModule?: boolean;
}

export const SUPERADMIN = 'superadmin';

/**
 * SPEC 6: superadmin passes; an entry with no key passes; otherwise the user's access holds
 * the key, and for customer-module features the pooled access of the groups named like the
 * selected warehouse must hold it too when that pool is not empty.
 */
export function canAccess(p: Principal, req: AccessRequirement, superadmin = SUPERADMIN): boolean {
  if (p.access.includes(superadmin)) return true;
  if (req.key === undefined) return true;
  if (!p.access.includes(req.key)) return false;
  if (req.customerModule && p.selectedWarehouse) {
    const pool = new Set<string>();
    for (const g of p.groups ?? []) if (g.name === p.selectedWarehouse) for (const a of g.access) pool.add(a);
    if (pool.size > 0 && !pool.has(req.key)) return false;
  }
  return true;
}

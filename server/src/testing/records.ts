/**
 * Records the demo deployment accepts, for tests that need one and are not about its fields:
 * the company info extension has required fields, so every company carries it (SPEC 3.3).
 */
export const companyInfo = { cuit: '30-71234567-1', company_type: 'distributor', state: 1 } as const;

export function aCompany(company_name: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { company_name, extensions: { companyInfo: { ...companyInfo } }, ...over };
}

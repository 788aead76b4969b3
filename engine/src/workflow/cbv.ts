/**
 * The GS1 Core Business Vocabulary 2.0 names the engine may emit. The EPCIS JSON schema lets any
 * non-CBV URI through as a bizStep or disposition, so a misspelt CBV name would pass it: this
 * list is what workflow definitions are checked against (registry/crossrefs.ts).
 */
export const CBV_BIZ_STEPS = [
  'accepting', 'arriving', 'assembling', 'collecting', 'commissioning', 'consigning', 'creating_class_instance',
  'cycle_counting', 'decommissioning', 'departing', 'destroying', 'disassembling', 'dispensing', 'encoding',
  'entering_exiting', 'holding', 'inspecting', 'installing', 'killing', 'loading', 'other', 'packing', 'picking',
  'receiving', 'removing', 'repackaging', 'repairing', 'replacing', 'reserving', 'retail_selling', 'sampling',
  'sensor_reporting', 'shipping', 'staging_outbound', 'stock_taking', 'stocking', 'storing', 'transporting',
  'unloading', 'unpacking', 'void_shipping',
] as const;

export const CBV_DISPOSITIONS = [
  'active', 'available', 'completeness_inferred', 'completeness_verified', 'conformant', 'container_closed',
  'container_open', 'damaged', 'destroyed', 'dispensed', 'disposed', 'encoded', 'expired', 'in_progress', 'in_transit',
  'inactive', 'mismatch_class', 'mismatch_instance', 'mismatch_quantity', 'needs_replacement', 'no_pedigree_match',
  'non_conformant', 'non_sellable_other', 'partially_dispensed', 'recalled', 'reserved', 'retail_sold', 'returned',
  'sellable_accessible', 'sellable_not_accessible', 'stolen', 'unavailable', 'unknown',
] as const;

export const CBV_BIZ_TRANSACTION_TYPES = [
  'bol', 'cert', 'desadv', 'inv', 'pedigree', 'po', 'poc', 'prodorder', 'recadv', 'rma', 'testprd', 'testres', 'upevt',
] as const;

export const CBV_SOURCE_DESTINATION_TYPES = ['owning_party', 'possessing_party', 'location'] as const;

const PREFIXES: Record<string, string[]> = {
  bizstep: ['urn:epcglobal:cbv:bizstep:', 'https://ns.gs1.org/cbv/BizStep-'],
  disp: ['urn:epcglobal:cbv:disp:', 'https://ns.gs1.org/cbv/Disp-'],
  btt: ['urn:epcglobal:cbv:btt:', 'https://ns.gs1.org/cbv/BTT-'],
  sdt: ['urn:epcglobal:cbv:sdt:', 'https://ns.gs1.org/cbv/SDT-'],
};

/**
 * The bare CBV name of a term written bare or as its URN / web URI. EPCIS 2.0 JSON-LD carries CBV
 * terms bare (the JSON schema refuses the `urn:epcglobal:cbv:` form), so events use this.
 */
export function cbvName(kind: keyof typeof PREFIXES, term: string): string {
  for (const p of PREFIXES[kind]) if (term.startsWith(p)) return term.slice(p.length);
  return term;
}

/** The term's CBV URN, for where a full identifier is wanted (documents, the ledger's readers). */
export function cbvUrn(kind: keyof typeof PREFIXES, term: string): string {
  return `${PREFIXES[kind][0]}${cbvName(kind, term)}`;
}

const LISTS = {
  bizstep: new Set<string>(CBV_BIZ_STEPS),
  disp: new Set<string>(CBV_DISPOSITIONS),
  btt: new Set<string>(CBV_BIZ_TRANSACTION_TYPES),
  sdt: new Set<string>(CBV_SOURCE_DESTINATION_TYPES),
};

export function isCbvTerm(kind: keyof typeof PREFIXES, term: string): boolean {
  return LISTS[kind as keyof typeof LISTS].has(cbvName(kind, term));
}

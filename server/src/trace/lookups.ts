import { localize, type Lang, type Registry, type TraceLocation } from '../../../engine/src/index';
import type { Store, StoredDoc } from '../store/types';
import { findIn } from './reader';

export interface DepositInfo {
  id: string;
  name: string;
  company?: string;
  gln?: string;
  location?: TraceLocation;
}

export interface CompanyInfo {
  id: string;
  name: string;
  /** The company info extension's type (internal, producer, distributor, customer…). */
  type?: string;
  location?: TraceLocation;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `{lat, lng}` at address.location, when both are numbers in range. */
export function placeOf(doc: StoredDoc | undefined): TraceLocation | undefined {
  const loc = (doc?.address as { location?: { lat?: unknown; lng?: unknown } } | undefined)?.location;
  const lat = Number(loc?.lat);
  const lng = Number(loc?.lng);
  if (loc?.lat === undefined || loc?.lng === undefined || !Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return undefined;
  return { lat, lng };
}

/**
 * The names, places and dates a trace shows, read in one batched query per collection for the
 * ids it gathered: materials, units, deposits and their companies, countries, lots.
 */
export class Lookups {
  readonly materials = new Map<string, { name: string; gtin?: string; uom?: string }>();
  readonly units = new Map<string, string>();
  readonly deposits = new Map<string, DepositInfo>();
  readonly companies = new Map<string, CompanyInfo>();
  readonly countries = new Map<string, string>();
  readonly lots = new Map<string, { elaborationDate?: string; expirationDate?: string }>();

  constructor(private readonly reg: Registry, private readonly store: Store) {}

  async materialsOf(ids: Iterable<string>): Promise<void> {
    const want = [...new Set(ids)].filter((id) => !this.materials.has(id));
    for (const m of await findIn(this.store, 'material', 'id', want)) this.materials.set(m.id, { name: text(m.name) ?? m.id, ...(text(m.gtin) ? { gtin: text(m.gtin) } : {}), ...(text(m.uom) ? { uom: text(m.uom) } : {}) });
  }

  async unitsOf(ids: Iterable<string>): Promise<void> {
    const want = [...new Set(ids)].filter((id) => !this.units.has(id));
    for (const u of await findIn(this.store, 'units_of_measurement', 'id', want)) {
      this.units.set(u.id, text(u.sap_unit_id) ?? text(u.unit_name) ?? text(u.code) ?? text(u.name) ?? u.id);
    }
  }

  /** A unit's label: its record's code or name; a unit written as text is itself. */
  unit(id: string | undefined): string {
    return id === undefined ? '' : this.units.get(id) ?? id;
  }

  async depositsOf(ids: Iterable<string>): Promise<void> {
    const want = [...new Set(ids)].filter((id) => !this.deposits.has(id));
    const found = await findIn(this.store, 'company_division', 'id', want);
    await this.companiesOf(found.map((d) => text(d.company_id)).filter((c): c is string => c !== undefined));
    for (const d of found) {
      const company = text(d.company_id);
      const location = placeOf(d) ?? (company ? this.companies.get(company)?.location : undefined);
      this.deposits.set(d.id, { id: d.id, name: text(d.division_name) ?? d.id, ...(company ? { company } : {}), ...(text(d.gln) ? { gln: text(d.gln) } : {}), ...(location ? { location } : {}) });
    }
  }

  /** The deposits events name by location URI (engine locationUri: by id, or by GLN), those `keep` allows. */
  async depositsAt(uris: Iterable<string>, keep: (deposit: string) => boolean): Promise<void> {
    const ids: string[] = [];
    const glns: string[] = [];
    for (const uri of new Set(uris)) {
      const own = /^urn:tracemesh:location:(.+)$/.exec(uri);
      const gln = /^https:\/\/id\.gs1\.org\/414\/(\d{13})$/.exec(uri);
      if (own) { try { ids.push(decodeURIComponent(own[1])); } catch { /* not one of ours */ } } else if (gln) glns.push(gln[1]);
    }
    const byGln = glns.length ? await findIn(this.store, 'company_division', 'gln', glns, {}, { id: 1 }) : [];
    await this.depositsOf([...ids, ...byGln.map((d) => d.id)].filter(keep));
  }

  async companiesOf(ids: Iterable<string>): Promise<void> {
    const want = [...new Set(ids)].filter((id) => !this.companies.has(id));
    for (const c of await findIn(this.store, 'company', 'id', want)) {
      const type = text((c.extensions as { companyInfo?: { company_type?: unknown } } | undefined)?.companyInfo?.company_type);
      const location = placeOf(c);
      this.companies.set(c.id, { id: c.id, name: text(c.company_name) ?? c.id, ...(type ? { type } : {}), ...(location ? { location } : {}) });
    }
  }

  async countriesOf(ids: Iterable<string>): Promise<void> {
    const want = [...new Set(ids)].filter((id) => !this.countries.has(id));
    for (const c of await findIn(this.store, 'country', 'id', want)) this.countries.set(c.id, text(c.country_name) ?? c.id);
  }

  /** Lots by `material|number`: their dates. */
  async lotsOf(keys: Iterable<string>): Promise<void> {
    const want = new Set([...keys].filter((k) => !this.lots.has(k)));
    const numbers = [...new Set([...want].map((k) => k.slice(k.indexOf('|') + 1)))];
    for (const l of await findIn(this.store, 'lot', 'number', numbers)) {
      const key = `${String(l.material)}|${String(l.number)}`;
      if (!want.has(key) || this.lots.has(key)) continue;
      this.lots.set(key, { ...(text(l.elaborationDate) ? { elaborationDate: text(l.elaborationDate) } : {}), ...(text(l.expirationDate) ? { expirationDate: text(l.expirationDate) } : {}) });
    }
  }

  depositName(id: string): string {
    const d = this.deposits.get(id);
    if (!d) return id;
    const company = d.company ? this.companies.get(d.company)?.name : undefined;
    return company && company !== d.name ? `${d.name} (${company})` : d.name;
  }

  /** A workflow's and a transition's label in the language asked. */
  workflowLabel(workflow: string, lang: Lang): string {
    const wf = this.reg.workflows[workflow];
    return wf ? localize(wf.label, lang) : workflow;
  }

  transitionLabel(workflow: string, transition: string, lang: Lang): string {
    const t = this.reg.workflows[workflow]?.transitions.find((x) => x.id === transition);
    return t ? localize(t.label, lang) : transition;
  }
}

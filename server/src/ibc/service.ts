import { DEFAULT_PAGE_SIZE, type Registry } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { AuthPrincipal } from '../auth/principal';
import { MasterDataService } from '../masterdata/service';
import type { Filter, Store } from '../store/types';
import { ENGINE, OperationService } from '../workflows/service';
import { addMonths, dayOf, IBC_ENTITY, IBC_WORKFLOW } from './dates';
import { IBC_EVENT } from './summary';

type Rec = Record<string, unknown>;

export interface IbcListQuery {
  state?: string;
  q?: string;
  customer?: string;
  usesMin?: number;
  usesMax?: number;
  ageMin?: number;
  ageMax?: number;
  page?: number;
  pageSize?: number;
  sort?: string;
}

/**
 * The IBC list's filters as store conditions. Age is in whole years, as one's age: `ageMax=3`
 * keeps an IBC of 3 years and 11 months, so its manufacture date is after today − 4 years.
 */
export function ibcFilters(q: IbcListQuery, today: string): Filter[] {
  const and: Filter[] = [];
  if (q.customer) and.push({ customer: q.customer });
  if (q.usesMin !== undefined) and.push({ numberOfUses: { $gte: q.usesMin } });
  if (q.usesMax !== undefined) and.push({ numberOfUses: { $lte: q.usesMax } });
  if (q.ageMin !== undefined) and.push({ manufactured_date: { $lte: addMonths(today, -12 * q.ageMin)! } });
  if (q.ageMax !== undefined) and.push({ manufactured_date: { $gt: addMonths(today, -12 * (q.ageMax + 1))! } });
  return and;
}

/** IBC look-ups, the IBC list with its fleet filters, and an IBC's log. */
export class IbcService {
  private readonly md: MasterDataService;
  private readonly ops: OperationService;

  constructor(private readonly reg: Registry, private readonly store: Store, private readonly clock: () => Date = () => new Date()) {
    this.md = new MasterDataService(reg, store);
    this.ops = new OperationService(reg, store, ENGINE, clock);
  }

  /** Whether the user sees this IBC with the warehouse group selected: the IBC workflow's own narrowing (deposit or owner). */
  private async visible(doc: Rec, p: AuthPrincipal): Promise<boolean> {
    return this.ops.inWarehouse(this.ops.workflow(IBC_WORKFLOW), doc, await this.ops.warehouse(p));
  }

  /**
   * By serial number or NFC tag, exactly one of them; presented as the master-data GET does. An
   * IBC the selected warehouse group does not see answers as an unknown one.
   */
  async lookup(q: { serial?: string; nfc?: string }, p: AuthPrincipal): Promise<Rec> {
    if ((q.serial === undefined) === (q.nfc === undefined)) throw new ApiError('INVALID_REQUEST', { detail: 'give exactly one of serial and nfc' });
    const [field, value, label] = q.serial !== undefined ? ['serial_number', q.serial, 'serial number'] : ['nfcTagNumber', q.nfc!, 'NFC tag'];
    const [doc] = await this.store.find(IBC_ENTITY, { filter: { [field]: value }, limit: 1 });
    if (!doc || !(await this.visible(doc, p))) throw new ApiError('VALUE_NOT_FOUND', { entity: 'IBC', label, value: value.slice(0, 100) });
    return this.md.present(this.md.entity(IBC_ENTITY), doc);
  }

  /** The IBC's life-cycle rows, newest first; 404 for an IBC that does not exist or the selected group does not see. */
  async events(id: string, p: AuthPrincipal, page = 1, pageSize = DEFAULT_PAGE_SIZE): Promise<{ data: Rec[]; total: number; page: number; pageSize: number }> {
    const ibc = await this.store.get(IBC_ENTITY, id);
    if (!ibc || !(await this.visible(ibc, p))) throw new ApiError('RECORD_NOT_FOUND', { entity: IBC_ENTITY, id: id.slice(0, 100) });
    const filter = { record: id };
    const [data, total] = await Promise.all([
      this.store.find(IBC_EVENT, { filter, sort: { at: -1, id: -1 }, skip: (page - 1) * pageSize, limit: pageSize }),
      this.store.count(IBC_EVENT, filter),
    ]);
    return { data, total, page, pageSize };
  }

  /** The IBCs: the ibc workflow's generic list (state, search, paging, warehouse narrowing) with the fleet's own filters. */
  list(q: IbcListQuery, p: AuthPrincipal): Promise<{ data: Rec[]; total: number; page: number; pageSize: number }> {
    return this.ops.list(IBC_WORKFLOW, { state: q.state, q: q.q, page: q.page, pageSize: q.pageSize, sort: q.sort }, p, ibcFilters(q, dayOf(this.clock())));
  }
}

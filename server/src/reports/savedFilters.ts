import type { ReportDef } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import { filterPairs, filtersOf } from './service';
import { StoreError, type Store, type StoredDoc } from '../store/types';

export const SAVED_FILTER_COLLECTION = 'report_saved_filter';
export const SAVED_FILTER_COLLECTION_SPEC = { name: SAVED_FILTER_COLLECTION, uniqueKeys: [['userId', 'report', 'name']], indexes: ['userId'] };

export interface SavedFilterBody {
  name: string;
  filters?: Record<string, string>;
  sort?: string;
}

const shown = (d: StoredDoc) => ({ id: d.id, name: d.name, filters: filtersOf(d.filters), ...(d.sort ? { sort: d.sort } : {}), createdAt: d.createdAt });

/** A user's named filters of one report; a name is unique per user and report (the store's unique key says so, races included). */
export class SavedFilters {
  constructor(private readonly store: Store, private readonly now: () => Date = () => new Date()) {}

  async list(userId: string, def: ReportDef): Promise<{ data: Record<string, unknown>[] }> {
    const docs = await this.store.find(SAVED_FILTER_COLLECTION, { filter: { userId, report: def.key }, sort: { name: 1 }, limit: 500 });
    return { data: docs.map(shown) };
  }

  /** `body.filters` and `body.sort` are checked by the caller (as the rows route checks them). */
  async create(userId: string, def: ReportDef, body: SavedFilterBody): Promise<Record<string, unknown>> {
    const name = body.name.trim();
    if (!name) throw new ApiError('INVALID_REQUEST', { detail: 'name must not be blank' });
    try {
      return shown(await this.store.insert(SAVED_FILTER_COLLECTION, {
        userId, report: def.key, name, filters: filterPairs(body.filters), ...(body.sort ? { sort: body.sort } : {}), createdAt: this.now().toISOString(),
      }));
    } catch (e) {
      if (e instanceof StoreError && e.code === 'DUPLICATE_KEY') throw new ApiError('SAVED_FILTER_NAME_TAKEN', { name: name.slice(0, 80) });
      throw e;
    }
  }

  async remove(userId: string, def: ReportDef, id: string): Promise<void> {
    const doc = await this.store.get(SAVED_FILTER_COLLECTION, id);
    if (!doc || doc.userId !== userId || doc.report !== def.key) throw new ApiError('RECORD_NOT_FOUND', { entity: 'saved filter', id: id.slice(0, 100) });
    await this.store.delete(SAVED_FILTER_COLLECTION, id);
  }
}

import { localize, type Registry } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import { MasterDataService } from '../masterdata/service';
import type { Store } from '../store/types';

type Rec = Record<string, unknown>;

/** A truck mapping's values and the registers they must be found in (active records, by key field). */
const REGISTERS = [
  { value: 'truckNo', entity: 'truck', key: 'truckNo', label: 'Truck number' },
  { value: 'isoTankLicense', entity: 'iso_tank', key: 'isoTankLicense', label: 'ISO tank license' },
] as const;

/** Checks a bulk delivery's truck and ISO tank against the registers (verifyTruckMapping). */
export class BulkService {
  private readonly md: MasterDataService;

  constructor(private readonly reg: Registry, private readonly store: Store) {
    this.md = new MasterDataService(reg, store);
  }

  /** The field's own label when the definitions have the entity, so the message reads as the form does. */
  private label(entity: string, key: string, fallback: string): string {
    const field = this.reg.entities[entity]?.fields.find((f) => f.id === key);
    return field ? localize(field.label) : fallback;
  }

  /** Both records, or 400 NOT_REGISTERED naming the first value not registered (active). */
  async verifyTruck(body: { truckNo: string; isoTankLicense: string }): Promise<{ truck: Rec; isoTank: Rec }> {
    const found: Rec[] = [];
    for (const r of REGISTERS) {
      const value = body[r.value];
      const [doc] = await this.store.find(r.entity, { filter: { [r.key]: value, state: 1 }, limit: 1 });
      if (!doc) throw new ApiError('NOT_REGISTERED', { label: this.label(r.entity, r.key, r.label), value: value.slice(0, 100) });
      found.push(this.reg.entities[r.entity] ? this.md.present(this.md.entity(r.entity), doc) : doc);
    }
    return { truck: found[0], isoTank: found[1] };
  }
}

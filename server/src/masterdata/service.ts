import {
  fieldAt, formOf, localize, prepareRecord, type ListAnswer, type ListQuery, stampCreate, stampUpdate, type EntityDef, type FormatResult, type Lang,
  type Registry, type ValidationMessage,
} from '../../../engine/src/index';
import { ApiError, type ErrorDetail } from '../apiError';
import { Grants, type Grantor } from '../auth/grants';
import type { Doc, Store, StoredDoc } from '../store/types';
import { isStoreError } from '../store/types';
import { WriteHooks } from '../records/writeHooks';
import { buildListQuery } from './query';
import { resolveReferences } from './references';

/** Who writes: their id and every key they hold (hard deletes and grants are decided by those). */
export type Actor = Grantor;

type Rec = Record<string, unknown>;

/**
 * Master-data operations, generic over every entity: each is the same pipeline
 * (validate → references → store → strip secrets), whatever the entity.
 */
export class MasterDataService {
  /** Users and groups carry access: their writes are checked against what the writer holds. */
  private readonly grants: Grants;

  /** `hooks`: the app's derived fields, brought up to date on every create and update. */
  constructor(private readonly reg: Registry, private readonly store: Store, private readonly hooks: WriteHooks = new WriteHooks()) {
    this.grants = new Grants(reg, store);
  }

  entity(name: string): EntityDef {
    const def = Object.hasOwn(this.reg.entities, name) ? this.reg.entities[name] : undefined;
    if (!def) throw new ApiError('UNKNOWN_ENTITY', { entity: name.slice(0, 60) });
    return def;
  }

  /** What leaves the server: never a secret field. */
  present(def: EntityDef, doc: StoredDoc): Rec {
    if (!def.secretFields?.length) return doc;
    const out: Rec = { ...doc };
    for (const s of def.secretFields) delete out[s];
    return out;
  }

  async list(name: string, query: ListQuery): Promise<ListAnswer> {
    const def = this.entity(name);
    const q = buildListQuery(this.reg, def, query);
    const [data, total] = await Promise.all([
      this.store.find(name, { filter: q.filter, search: q.search, sort: q.sort, skip: q.skip, limit: q.limit }),
      this.store.count(name, q.filter, { search: q.search }),
    ]);
    return { data: data.map((d) => this.present(def, d)), total, page: q.page, pageSize: q.pageSize };
  }

  async get(name: string, id: string): Promise<Rec> {
    const def = this.entity(name);
    return this.present(def, await this.existing(def, id));
  }

  /**
   * What create would answer, without writing: the same pipeline (defaults, extensions,
   * references), so success here means create succeeds short of a unique value taken.
   */
  async validate(name: string, body: unknown, lang: Lang = 'en'): Promise<FormatResult> {
    const def = this.entity(name);
    const result = prepareRecord(this.reg, def.name, body, { lang });
    if (!result.success) return result;
    const missing = await resolveReferences(this.reg, this.store, formOf(this.reg, def.name)!.fields, structuredClone(result.value));
    if (missing.length === 0) return result;
    const messages: ValidationMessage[] = missing.map((d) => ({ severity: 'error', code: d.code as ValidationMessage['code'], message: d.message, field: d.field, params: {} }));
    return { ...result, success: false, messages: [...result.messages, ...messages] };
  }

  async create(name: string, body: unknown, actor: Actor): Promise<Rec> {
    const def = this.entity(name);
    const value = await this.checked(def, body, undefined);
    await this.grants.checkWrite(name, undefined, value, actor);
    const doc = this.hooks.apply(name, stampCreate(def, value, actor.userId, new Date().toISOString()) as Doc);
    return this.present(def, await this.write(def, () => this.store.insert(name, doc)));
  }

  async update(name: string, id: string, body: unknown, actor: Actor): Promise<Rec> {
    const def = this.entity(name);
    const before = await this.existing(def, id);
    const value = await this.checked(def, body, before);
    const doc = this.hooks.apply(name, stampUpdate(this.reg, def, before, value, actor.userId, new Date().toISOString()) as Doc);
    await this.grants.checkWrite(name, before, doc, actor);
    return this.present(def, await this.write(def, () => this.store.update(name, id, doc)));
  }

  async remove(name: string, id: string, hard: boolean, actor: Actor): Promise<Rec> {
    const def = this.entity(name);
    const before = await this.existing(def, id);
    if (hard) {
      if (!actor.access.includes(this.reg.access.superadmin)) throw new ApiError('HARD_DELETE_FORBIDDEN');
      await this.grants.checkWrite(name, before, undefined, actor);
      await this.store.delete(name, id);
      return { id, deleted: true };
    }
    await this.grants.checkWrite(name, before, { ...before, state: 3 }, actor);
    const doc = await this.store.patch(name, id, { state: 3, updatedAt: new Date().toISOString(), updatedBy: actor.userId });
    return this.present(def, doc);
  }

  private async existing(def: EntityDef, id: string): Promise<StoredDoc> {
    const doc = await this.store.get(def.name, id);
    if (!doc) throw new ApiError('RECORD_NOT_FOUND', { entity: def.name, id: id.slice(0, 100) });
    return doc;
  }

  /** The record pipeline, then references; throws 400 with every message. */
  async checked(def: EntityDef, body: unknown, before: StoredDoc | undefined): Promise<Rec> {
    // A bare string is a reference to a record, not one to write: refused as not an object.
    const result = prepareRecord(this.reg, def.name, typeof body === 'string' ? 0 : body, { before });
    const details: ErrorDetail[] = result.messages
      .filter((m) => m.severity === 'error')
      .map((m) => ({ field: m.field, message: m.message, code: m.code, params: m.params }));
    const value = result.value;
    if (details.length === 0) details.push(...(await resolveReferences(this.reg, this.store, formOf(this.reg, def.name)!.fields, value)));
    if (details.length > 0) throw this.invalid(def, details);
    return value;
  }

  private invalid(def: EntityDef, details: ErrorDetail[]): ApiError {
    return new ApiError('VALIDATION_FAILED', { entity: def.name, count: details.length }, details);
  }

  /** Runs a store write, a duplicate unique value answered 400 naming the fields by their labels. */
  async write(def: EntityDef, op: () => Promise<StoredDoc>): Promise<StoredDoc> {
    try {
      return await op();
    } catch (e) {
      if (isStoreError(e, 'DUPLICATE_KEY')) {
        const labels = e.fields.map((f) => {
          const field = fieldAt(formOf(this.reg, def.name)!.fields, f);
          return field ? localize(field.label) : f;
        });
        throw new ApiError('DUPLICATE_KEY', { entity: def.name, fields: labels.join(', ') }, e.fields.map((f, i) => ({ field: f, message: `${labels[i]} must be unique`, code: 'DUPLICATE_KEY' })));
      }
      throw e;
    }
  }
}

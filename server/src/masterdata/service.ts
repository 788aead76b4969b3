import {
  applyDefaults, compileForm, formatError, fieldAt, formOf, getPath, localize, type EntityDef, type FormatResult,
  type Lang, type Registry,
} from '../../../engine/src/index';
import { ApiError, type ErrorDetail } from '../apiError';
import { Grants, serverOwnedFields, type Grantor } from '../auth/grants';
import type { Doc, JsonValue, Store, StoredDoc } from '../store/types';
import { isStoreError } from '../store/types';
import { buildListQuery, type ListQuery } from './query';
import { resolveReferences } from './references';

export interface Actor extends Grantor {
  isAdmin: boolean;
}

type Rec = Record<string, unknown>;

/**
 * Master-data operations, generic over every entity: each is the same pipeline
 * (validate → references → store → strip secrets), whatever the entity.
 */
export class MasterDataService {
  /** Users and groups carry access: their writes are checked against what the writer holds. */
  private readonly grants: Grants;

  constructor(private readonly reg: Registry, private readonly store: Store) {
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

  async list(name: string, query: ListQuery): Promise<{ data: Rec[]; total: number; page: number; pageSize: number }> {
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

  validate(name: string, body: unknown, lang: Lang = 'en'): FormatResult {
    const def = this.entity(name);
    return compileForm(formOf(this.reg, def.name)!)(this.withoutSecrets(def, body), { lang });
  }

  async create(name: string, body: unknown, actor: Actor): Promise<Rec> {
    const def = this.entity(name);
    const input = this.withoutSecrets(def, body);
    const value = await this.checked(def, input, undefined);
    await this.grants.checkWrite(name, undefined, value, actor);
    const now = new Date().toISOString();
    const doc = { ...value, createdAt: now, updatedAt: now, createdBy: actor.userId, updatedBy: actor.userId } as Doc;
    delete doc.id;
    delete doc.sync;
    if (def.sync) doc.sync = { status: '' };
    return this.present(def, await this.write(def, () => this.store.insert(name, doc)));
  }

  async update(name: string, id: string, body: unknown, actor: Actor): Promise<Rec> {
    const def = this.entity(name);
    const before = await this.existing(def, id);
    const value = await this.checked(def, this.withoutSecrets(def, body), before);
    const doc: Doc = { ...value } as Doc;
    // What the client may not set is carried over from the stored record.
    for (const k of ['createdAt', 'createdBy', 'sync', ...this.clientBarred(def)]) {
      if (before[k] !== undefined) doc[k] = before[k];
      else delete doc[k];
    }
    this.keepDisabledExtensions(def, before, doc);
    await this.grants.checkWrite(name, before, doc, actor);
    doc.updatedAt = new Date().toISOString();
    doc.updatedBy = actor.userId;
    delete doc.id;
    return this.present(def, await this.write(def, () => this.store.update(name, id, doc)));
  }

  async remove(name: string, id: string, hard: boolean, actor: Actor): Promise<Rec> {
    const def = this.entity(name);
    const before = await this.existing(def, id);
    if (hard) {
      if (!actor.isAdmin) throw new ApiError('HARD_DELETE_FORBIDDEN');
      await this.grants.checkWrite(name, before, undefined, actor);
      await this.store.delete(name, id);
      return { id, deleted: true };
    }
    await this.grants.checkWrite(name, before, { ...before, state: 3 }, actor);
    const doc = await this.store.patch(name, id, { state: 3, updatedAt: new Date().toISOString(), updatedBy: actor.userId });
    return this.present(def, doc);
  }

  /** Fields a client never writes: secrets, and what only the server stamps (last sign-in). */
  private clientBarred(def: EntityDef): string[] {
    return [...def.secretFields, ...serverOwnedFields(def.name)];
  }

  private withoutSecrets(def: EntityDef, body: unknown): unknown {
    const barred = this.clientBarred(def);
    if (!barred.length || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
    const out: Rec = { ...(body as Rec) };
    for (const s of barred) delete out[s];
    return out;
  }

  private async existing(def: EntityDef, id: string): Promise<StoredDoc> {
    const doc = await this.store.get(def.name, id);
    if (!doc) throw new ApiError('RECORD_NOT_FOUND', { entity: def.name, id: id.slice(0, 100) });
    return doc;
  }

  /** Format validation, immutability and references; throws 400 with every message. */
  private async checked(def: EntityDef, input: unknown, before: StoredDoc | undefined): Promise<Rec> {
    const form = formOf(this.reg, def.name)!;
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      const r = compileForm(form)(typeof input === 'string' ? 0 : input);
      throw this.invalid(def, r.messages.map((m) => ({ field: m.field, message: m.message, code: m.code })));
    }
    const withDefaults = before ? (input as Rec) : applyDefaults(form.fields, input as Rec);
    const result = compileForm(form)(withDefaults);
    const details: ErrorDetail[] = result.messages
      .filter((m) => m.severity === 'error')
      .map((m) => ({ field: m.field, message: m.message, code: m.code }));
    const value = (result.value ?? {}) as Rec;
    if (before) details.push(...this.immutableChanges(form.fields, before, value));
    if (details.length === 0) details.push(...(await resolveReferences(this.reg, this.store, form.fields, value)));
    if (details.length > 0) throw this.invalid(def, details);
    return value;
  }

  private invalid(def: EntityDef, details: ErrorDetail[]): ApiError {
    return new ApiError('VALIDATION_FAILED', { entity: def.name, count: details.length }, details);
  }

  private immutableChanges(fields: EntityDef['fields'], before: Rec, after: Rec, prefix = ''): ErrorDetail[] {
    const out: ErrorDetail[] = [];
    const walk = (fs: EntityDef['fields'], p: string) => {
      for (const f of fs) {
        const path = p ? `${p}.${f.id}` : f.id;
        if (f.immutable) {
          const was = getPath(before, path);
          const now = getPath(after, path);
          if (was !== undefined && was !== null && was !== '' && JSON.stringify(was) !== JSON.stringify(now)) {
            out.push({ field: path, message: formatError('FORMAT_IMMUTABLE', { label: localize(f.label) }), code: 'FORMAT_IMMUTABLE' });
          }
        }
        if (f.fields && !f.multiple) walk(f.fields, path);
      }
    };
    walk(fields, prefix);
    return out;
  }

  private keepDisabledExtensions(def: EntityDef, before: Rec, doc: Doc): void {
    const stored = before.extensions as Record<string, JsonValue> | undefined;
    if (!stored) return;
    const enabled = new Set(this.reg.deployment.extensions[def.name] ?? []);
    const kept = Object.fromEntries(Object.entries(stored).filter(([k]) => !enabled.has(k)));
    if (Object.keys(kept).length === 0) return;
    doc.extensions = { ...((doc.extensions as Record<string, JsonValue>) ?? {}), ...kept };
  }

  private async write(def: EntityDef, op: () => Promise<StoredDoc>): Promise<StoredDoc> {
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

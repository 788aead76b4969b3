import { isDeepStrictEqual } from 'node:util';
import type { Registry } from '../../../engine/src/index';
import { ApiError, type ErrorDetail } from '../apiError';
import type { Store, StoredDoc } from '../store/types';
import { organisationOf, strings } from './policy';
import { ableToSignIn, superadminRemains, type SuperadminChange } from './superadmins';

/**
 * Who may grant what (issue 13). Access reaches a user through four fields of their record
 * (keys, templates, profiles, groups) and through the access of the groups they belong to, so
 * these two entities are where an escalation would happen. The rule, for every write to them:
 * you give or take away only access you hold yourself; only a superadmin touches a superadmin;
 * nobody changes their own grants; no write may leave the platform without an active superadmin,
 * and that includes a write to an organisation, whose rules can keep its members from signing in.
 */

/** The fields of a user record that grant access. */
const USER_GRANTS = ['access', 'templates', 'profiles', 'groups'] as const;
type UserGrant = (typeof USER_GRANTS)[number];

/** The fields of an organisation that decide whether its members can sign in (policy.ts). */
const SIGN_IN_RULES = ['state', 'account_expiry', 'providers', 'allowed_domains'] as const;

/** Who is writing: their user id and every key they hold (a superadmin holds them all). */
export interface Grantor {
  userId: string;
  access: readonly string[];
}

type Rec = Record<string, unknown>;

const added = (before: string[], after: string[]) => after.filter((x) => !before.includes(x));
const changed = (before: string[], after: string[]) => [...added(before, after), ...added(after, before)];

/** The keys of the access catalogue (schemas/access.json), and what each grant gives. */
export class AccessCatalogue {
  readonly superadmin: string;
  private readonly keys: Set<string>;
  private readonly templates: Map<string, readonly string[]>;
  private readonly profiles: Map<string, { keys?: readonly string[]; templates?: readonly string[] }>;

  constructor(reg: Registry) {
    this.superadmin = reg.access.superadmin;
    this.keys = new Set([this.superadmin, ...reg.access.keys.map((k) => k.key)]);
    this.templates = new Map(reg.access.templates.map((t) => [t.id, t.keys]));
    this.profiles = new Map(reg.access.profiles.map((p) => [p.id, p]));
  }

  /** The keys one entry of a user's access, templates or profiles gives. */
  keysOf(field: 'access' | 'templates' | 'profiles', id: string): string[] {
    if (field === 'access') return [id];
    if (field === 'templates') return [...(this.templates.get(id) ?? [])];
    const p = this.profiles.get(id);
    return [...(p?.keys ?? []), ...(p?.templates ?? []).flatMap((t) => this.keysOf('templates', t))];
  }

  known(field: 'access' | 'templates' | 'profiles', id: string): boolean {
    return field === 'access' ? this.keys.has(id) : field === 'templates' ? this.templates.has(id) : this.profiles.has(id);
  }

  /** Templates and profiles that make a user superadmin (none in the shipped catalogue, but a deployment may add one). */
  superadminGrants(): { templates: string[]; profiles: string[] } {
    const gives = (field: 'templates' | 'profiles', id: string) => this.keysOf(field, id).includes(this.superadmin);
    return {
      templates: [...this.templates.keys()].filter((t) => gives('templates', t)),
      profiles: [...this.profiles.keys()].filter((p) => gives('profiles', p)),
    };
  }
}

const catalogues = new WeakMap<Registry, AccessCatalogue>();

/** One catalogue per registry: every request's principal is computed with it. */
export function catalogueOf(reg: Registry): AccessCatalogue {
  let c = catalogues.get(reg);
  if (!c) catalogues.set(reg, (c = new AccessCatalogue(reg)));
  return c;
}

/** Keys a user record holds: its own grants and those of its active groups. */
export async function userKeys(catalogue: AccessCatalogue, store: Store, user: Rec): Promise<{ keys: Set<string>; groups: StoredDoc[] }> {
  const keys = new Set<string>();
  for (const field of ['access', 'templates', 'profiles'] as const) for (const id of strings(user[field])) for (const k of catalogue.keysOf(field, id)) keys.add(k);
  const groupIds = strings(user.groups);
  const groups = groupIds.length ? (await store.find('group', { filter: { id: { $in: groupIds } } })).filter((g) => g.state !== 3) : [];
  for (const g of groups) for (const k of strings(g.access)) keys.add(k);
  return { keys, groups };
}

/**
 * The check the master-data writes of users, groups and organisations go through, and the
 * send-link route.
 */
export class Grants {
  readonly catalogue: AccessCatalogue;

  constructor(private readonly reg: Registry, private readonly store: Store) {
    this.catalogue = catalogueOf(reg);
  }

  /**
   * Throws unless `actor` may turn `before` (absent: a create) into `after` (absent: a hard
   * delete). Runs after validation, before the store is written; other entities pass.
   */
  async checkWrite(entity: string, before: StoredDoc | undefined, after: Rec | undefined, actor: Grantor): Promise<void> {
    if (entity === 'user') await this.checkUser(before, after, actor);
    else if (entity === 'group') await this.checkGroup(before, after, actor);
    else if (entity === 'organisation') await this.checkOrganisation(before, after);
  }

  /** Only a superadmin manages a superadmin: edits, disables, deletes, or mails them a link. */
  async checkMayManage(actor: Grantor, user: Rec): Promise<void> {
    if (this.isSuperadmin(actor)) return;
    if (await this.superadminIn(user)) throw new ApiError('SUPERADMIN_ONLY');
  }

  private isSuperadmin(actor: Grantor): boolean {
    return actor.access.includes(this.catalogue.superadmin);
  }

  private async checkUser(before: StoredDoc | undefined, after: Rec | undefined, actor: Grantor): Promise<void> {
    const diff = Object.fromEntries(USER_GRANTS.map((f) => [f, changed(strings(before?.[f]), strings(after?.[f]))])) as Record<UserGrant, string[]>;
    this.refuseUnknown(USER_GRANTS.flatMap((f) => (f === 'groups' ? [] : added(strings(before?.[f]), strings(after?.[f])).filter((id) => !this.catalogue.known(f, id)).map((id) => ({ field: f, id })))));
    const grantsChange = USER_GRANTS.some((f) => diff[f].length > 0);
    if (before && after && before.id === actor.userId && grantsChange) throw new ApiError('OWN_ACCESS');
    if (before) await this.checkMayManage(actor, before);
    if (!this.isSuperadmin(actor)) {
      const needed = (['access', 'templates', 'profiles'] as const).flatMap((f) => diff[f].flatMap((id) => this.catalogue.keysOf(f, id)));
      const groups = diff.groups.length ? await this.store.find('group', { filter: { id: { $in: diff.groups } } }) : [];
      this.refuseNotHeld([...needed, ...groups.flatMap((g) => strings(g.access))], actor);
    }
    if (before && (await this.activeSuperadmin(before)) && !(after && (await this.activeSuperadmin(after)))) {
      if (!(await this.superadminRemains({ user: before.id }))) throw new ApiError('LAST_SUPERADMIN');
    }
  }

  private async checkGroup(before: StoredDoc | undefined, after: Rec | undefined, actor: Grantor): Promise<void> {
    const was = strings(before?.access);
    const now = strings(after?.access);
    this.refuseUnknown(added(was, now).filter((k) => !this.catalogue.known('access', k)).map((id) => ({ field: 'access', id })));
    // Switching a group off or on takes its keys from, or gives them to, every member.
    const given = (g: Rec | undefined) => (g && g.state !== 3 ? strings(g.access) : []);
    if (!this.isSuperadmin(actor)) this.refuseNotHeld([...changed(was, now), ...changed(given(before), given(after))], actor);
    const sa = this.catalogue.superadmin;
    if (before && given(before).includes(sa) && !given(after).includes(sa)) {
      if (!(await this.superadminRemains({ group: before.id }))) throw new ApiError('LAST_SUPERADMIN');
    }
  }

  /**
   * An organisation that is disabled, expires, or stops allowing its members' way in locks
   * them out: refused when that would leave no superadmin able to sign in. Organisations are
   * written rarely, but superadmins are looked up only when one of those rules changes; and
   * when none could sign in before, the write (perhaps a repair) is not what locks them out.
   */
  private async checkOrganisation(before: StoredDoc | undefined, after: Rec | undefined): Promise<void> {
    if (!before || (after && SIGN_IN_RULES.every((f) => isDeepStrictEqual(before[f], after[f])))) return;
    const rewritten = after ? ({ ...after, id: before.id } as StoredDoc) : null;
    if (!(await this.superadminRemains({ organisation: { id: before.id, after: rewritten } })) && (await this.superadminRemains({}))) {
      throw new ApiError('LAST_SUPERADMIN');
    }
  }

  private superadminRemains(change: SuperadminChange): Promise<boolean> {
    return superadminRemains(this.reg, this.catalogue, this.store, change);
  }

  /** Enabled, superadmin, and let in by their organisation. */
  private async activeSuperadmin(user: Rec): Promise<boolean> {
    if (user.state === 3 || !(await this.superadminIn(user))) return false;
    return ableToSignIn(this.reg, user as StoredDoc, await organisationOf(this.store, user as StoredDoc), Date.now());
  }

  private async superadminIn(user: Rec): Promise<boolean> {
    return (await userKeys(this.catalogue, this.store, user)).keys.has(this.catalogue.superadmin);
  }

  private refuseUnknown(unknown: { field: string; id: string }[]): void {
    if (unknown.length === 0) return;
    const details: ErrorDetail[] = unknown.map((u) => ({ field: u.field, message: `${u.id} is not in the access catalogue`, code: 'ACCESS_UNKNOWN' }));
    throw new ApiError('ACCESS_UNKNOWN', { values: [...new Set(unknown.map((u) => u.id))].join(', ') }, details);
  }

  private refuseNotHeld(keys: string[], actor: Grantor): void {
    const missing = [...new Set(keys)].filter((k) => !actor.access.includes(k));
    if (missing.length > 0) throw new ApiError('GRANT_NOT_HELD', { key: missing.join(', ') });
  }
}

import type { EntityDef } from '../../../engine/src/index';

export interface EntityActions {
  /** Creating a record sends a password-reset mail (an invitation). */
  invite: boolean;
  /** Each row offers "reset password". */
  resetPassword: boolean;
}

/**
 * Actions beyond create, edit, disable and enable, derived from the definition rather than
 * the entity's name: records that sign in (an e-mail field and a secret password field) can
 * be invited and have their password reset.
 */
export function entityActions(def: EntityDef | undefined): EntityActions {
  const signsIn = !!def && def.fields.some((f) => f.id === 'email') && def.secretFields.some((s) => s.startsWith('password'));
  return { invite: signsIn, resetPassword: signsIn };
}

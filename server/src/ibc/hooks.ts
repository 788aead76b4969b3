import type { Registry } from '../../../engine/src/index';
import type { WriteHooks } from '../records/writeHooks';
import { adrPatch, IBC_ENTITY } from './dates';
import { qcLeadTimePatch } from './qcLeadTime';

/**
 * An IBC's ADR dates and QC lead time derived on every write (master data, imports, transitions): a new IBC, or
 * one just inspected by a QC, is judged by the fill's refuse rules on current dates at once. The
 * alert job's periodic pass stays, for a change of the settings.
 */
export function registerIbcHooks(hooks: WriteHooks, reg: Registry): void {
  const settings = reg.deployment.settings.ibc;
  hooks.register(IBC_ENTITY, (record) => adrPatch(record, settings));
  hooks.register(IBC_ENTITY, qcLeadTimePatch);
}

import type { Registry } from '../../../engine/src/index';

/** `settings.ibc` of the deployment (ADR periods, alert lead time, when an IBC counts as lost). */
export interface IbcSettings {
  inspectionIntervalMonths: number;
  lifetimeYears: number;
  alertDaysBefore: number;
  lossAfterDays: number;
}

/** ADR 6.5.4.4.1 (2.5 years between periodic inspections), ADR 4.1.1.15 (5 years of use). */
const DEFAULTS: IbcSettings = { inspectionIntervalMonths: 30, lifetimeYears: 5, alertDaysBefore: 30, lossAfterDays: 180 };

/**
 * The deployment's IBC settings. The sanitiser of this branch does not know `settings.ibc` yet,
 * so a deployment without it (or without one of its values) gets the contract's values here, once.
 */
export function ibcSettings(reg: Registry): IbcSettings {
  const own = (reg.deployment.settings as { ibc?: Partial<IbcSettings> }).ibc ?? {};
  const pick = (k: keyof IbcSettings) => (typeof own[k] === 'number' && Number.isFinite(own[k]) ? own[k] : DEFAULTS[k]);
  return { inspectionIntervalMonths: pick('inspectionIntervalMonths'), lifetimeYears: pick('lifetimeYears'), alertDaysBefore: pick('alertDaysBefore'), lossAfterDays: pick('lossAfterDays') };
}

import type { FastifyBaseLogger } from 'fastify';
import type { LocalText, Registry } from '../../../engine/src/index';
import type { Doc, Store } from '../store/types';
import { raiseOnce } from '../alertPass';
import { startAlertJob } from '../periodic';
import { dayOf, IBC_ENTITY, IBC_WORKFLOW, refreshAdrDates } from './dates';

type Kind = 'inspection' | 'endOfLife';
const FIELD: Record<Kind, string> = { inspection: 'nextInspectionDate', endOfLife: 'endOfLife' };

/** The alert texts, `{serial}` and `{date}` filled in. */
const TEXT: Record<Kind, { title: LocalText; description: LocalText }> = {
  inspection: {
    title: { en: 'IBC {serial}: periodic inspection due {date}', es: 'IBC {serial}: inspección periódica el {date}', fr: 'GRV {serial} : contrôle périodique le {date}' },
    description: {
      en: 'IBC {serial} must pass its periodic inspection (ADR 6.5.4.4) by {date}; after that date it cannot be filled until it is inspected.',
      es: 'El IBC {serial} debe pasar su inspección periódica (ADR 6.5.4.4) a más tardar el {date}; después de esa fecha no puede llenarse hasta ser inspeccionado.',
      fr: 'Le GRV {serial} doit passer son contrôle périodique (ADR 6.5.4.4) au plus tard le {date} ; après cette date, il ne peut être rempli avant d\'être contrôlé.',
    },
  },
  endOfLife: {
    title: { en: 'IBC {serial}: end of life {date}', es: 'IBC {serial}: fin de vida útil el {date}', fr: 'GRV {serial} : fin de vie le {date}' },
    description: {
      en: 'IBC {serial} reaches the end of its service life (ADR 4.1.1.15) on {date}; after that date it cannot be filled.',
      es: 'El IBC {serial} llega al fin de su vida útil (ADR 4.1.1.15) el {date}; después de esa fecha no puede llenarse.',
      fr: 'Le GRV {serial} atteint la fin de sa durée d\'utilisation (ADR 4.1.1.15) le {date} ; après cette date, il ne peut plus être rempli.',
    },
  },
};

function filled(t: LocalText, serial: string, date: string): LocalText {
  return Object.fromEntries(Object.entries(t).map(([lang, s]) => [lang, String(s).replaceAll('{serial}', serial).replaceAll('{date}', date)])) as unknown as LocalText;
}

/** The idempotent id of an IBC's alert for one date: raised once per IBC, kind and date. */
export function alertId(kind: Kind, ibcId: string, date: string): string {
  return `ibc-${kind}-${ibcId}-${date}`;
}

/**
 * One `alert` per IBC (not disposed) and date kind whose date is within `alertDaysBefore` days of
 * `now` or past; the ADR dates are recomputed first, so a date changed by master data, an import
 * or a QC since the last pass is the one alerted. Returns how many alerts were new.
 */
export async function raiseIbcAlerts(store: Store, reg: Registry, now: Date): Promise<number> {
  const settings = reg.deployment.settings.ibc;
  await refreshAdrDates(store, settings);
  const horizon = dayOf(now, settings.alertDaysBefore);
  let raised = 0;
  for (const kind of ['inspection', 'endOfLife'] as const) {
    const field = FIELD[kind];
    const query = { filter: { [field]: { $lte: horizon }, status: { $ne: 'disposed' } }, projection: { serial_number: 1, deposit_id: 1, [field]: 1 } as const };
    raised += await raiseOnce(store, IBC_ENTITY, query, now, (ibc) => alertId(kind, ibc.id, String(ibc[field])), (ibc) => {
      const date = String(ibc[field]);
      const serial = String(ibc.serial_number ?? ibc.id);
      const text = TEXT[kind];
      return {
        title: filled(text.title, serial, date), description: filled(text.description, serial, date),
        severity: date < dayOf(now) ? 'error' : 'warning', operation: { workflow: IBC_WORKFLOW, id: ibc.id, transition: '' },
        ...(typeof ibc.deposit_id === 'string' ? { deposit: ibc.deposit_id } : {}),
      } as unknown as Doc;
    });
  }
  return raised;
}

export const ALERT_INTERVAL_MS = 6 * 3_600_000;

/** Runs the alert pass now and every `intervalMs` (6 h) in the background (periodic.ts). */
export function startIbcAlertJob(store: Store, reg: Registry, log: FastifyBaseLogger, intervalMs = ALERT_INTERVAL_MS): { stop(): Promise<void> } {
  return startAlertJob(log, intervalMs, 'IBC inspection and end-of-life', (now) => raiseIbcAlerts(store, reg, now));
}

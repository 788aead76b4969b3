import type { FastifyBaseLogger } from 'fastify';
import { localize, type Lang, type LocalText, type Registry } from '../../../engine/src/index';
import { raiseOnce } from '../alertPass';
import { startAlertJob } from '../periodic';
import type { Doc, Store } from '../store/types';
import { SYNC_JOB, type SyncJob } from './collections';
import { adoptPending } from './jobs';

type Kind = 'due' | 'overdue';

/** `{operation}`, `{record}` and `{date}` are filled in. */
const TEXT: Record<Kind, { title: LocalText; description: LocalText }> = {
  due: {
    title: { en: '{operation} {record}: declaration to the authority due {date}', es: '{operation} {record}: declaración a la autoridad vence el {date}', fr: '{operation} {record} : déclaration à l\'autorité due le {date}' },
    description: {
      en: '{operation} {record} has not been accepted by the authority yet; its legal deadline is {date}. Check the sync logs and send it again if it failed.',
      es: '{operation} {record} todavía no fue aceptada por la autoridad; su plazo legal vence el {date}. Revise los registros de sincronización y reenvíela si falló.',
      fr: '{operation} {record} n\'a pas encore été acceptée par l\'autorité ; son délai légal expire le {date}. Consultez les journaux de synchronisation et renvoyez-la en cas d\'échec.',
    },
  },
  overdue: {
    title: { en: '{operation} {record}: declaration to the authority overdue since {date}', es: '{operation} {record}: declaración a la autoridad vencida desde el {date}', fr: '{operation} {record} : déclaration à l\'autorité en retard depuis le {date}' },
    description: {
      en: '{operation} {record} was not accepted by the authority within its legal deadline ({date}). Check the sync logs and send it again.',
      es: '{operation} {record} no fue aceptada por la autoridad dentro de su plazo legal ({date}). Revise los registros de sincronización y reenvíela.',
      fr: '{operation} {record} n\'a pas été acceptée par l\'autorité dans son délai légal ({date}). Consultez les journaux de synchronisation et renvoyez-la.',
    },
  },
};

const OPEN = { $in: ['pending', 'leased', 'failed'] };

function filled(t: LocalText, operation: LocalText, record: string, date: string): LocalText {
  return Object.fromEntries(Object.entries(t).map(([lang, s]) => [lang, String(s)
    .replaceAll('{operation}', localize(operation, lang as Lang))
    .replaceAll('{record}', record).replaceAll('{date}', date)])) as unknown as LocalText;
}

/** The idempotent id of a job's alert: one when it falls due, one when it is overdue. */
export function syncAlertId(kind: Kind, key: string): string {
  return `sync-${kind}-${key}`;
}

/**
 * One `alert` per unsent job once it is due soon, and another once it is past its deadline.
 * Returns how many alerts were new.
 */
export async function raiseSyncAlerts(store: Store, reg: Registry, now: Date): Promise<number> {
  const at = now.toISOString();
  let raised = 0;
  for (const kind of ['due', 'overdue'] as const) {
    const field = kind === 'due' ? 'dueSoonAt' : 'deadline';
    raised += await raiseOnce(store, SYNC_JOB, { filter: { state: OPEN, [field]: { $lte: at } } }, now, (doc) => syncAlertId(kind, (doc as unknown as SyncJob).key), (doc) => {
      const job = doc as unknown as SyncJob;
      const text = TEXT[kind];
      const label = reg.workflows[job.workflow]?.label ?? ({ en: job.workflow } as LocalText);
      const date = job.deadline.slice(0, 16).replace('T', ' ');
      return {
        title: filled(text.title, label, job.title || job.recordId, date), description: filled(text.description, label, job.title || job.recordId, date),
        severity: kind === 'overdue' ? 'error' : 'warning', operation: { workflow: job.workflow, id: job.recordId, transition: '' },
        ...(job.deposit ? { deposit: job.deposit } : {}),
      } as unknown as Doc;
    });
  }
  return raised;
}

/** Counts for the monitoring screens and dashboards: the outbox's depth, failures and deadlines. */
export async function syncCounts(store: Store, now: Date): Promise<{ pending: number; leased: number; failed: number; synced: number; overdue: number; dueSoon: number }> {
  const at = now.toISOString();
  const [pending, leased, failed, synced, overdue, dueSoon] = await Promise.all([
    store.count(SYNC_JOB, { state: 'pending' }),
    store.count(SYNC_JOB, { state: 'leased' }),
    store.count(SYNC_JOB, { state: 'failed' }),
    store.count(SYNC_JOB, { state: 'done' }),
    store.count(SYNC_JOB, { state: OPEN, deadline: { $lte: at } }),
    store.count(SYNC_JOB, { state: OPEN, dueSoonAt: { $lte: at }, deadline: { $gt: at } }),
  ]);
  return { pending, leased, failed, synced, overdue, dueSoon };
}

export const DEADLINE_INTERVAL_MS = 60_000;

/** The alert pass (after adopting pending records without a job) now and every minute (real-time deadlines are minutes long), in the background (periodic.ts). */
export function startSyncAlertJob(store: Store, reg: Registry, log: FastifyBaseLogger, intervalMs = DEADLINE_INTERVAL_MS): { stop(): Promise<void> } {
  return startAlertJob(log, intervalMs, 'declaration deadline', async (now) => {
    const adopted = await adoptPending(store, reg, now);
    if (adopted > 0) log.warn({ adopted }, 'pending declarations without an outbox job were given one');
    return raiseSyncAlerts(store, reg, now);
  });
}

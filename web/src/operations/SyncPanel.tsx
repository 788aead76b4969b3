import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { errorText } from '../api/errorText';
import type { Rec } from '../masterdata/api';
import { useToast } from '../toasts/toast';
import { useOperation } from './context';
import { syncInfo } from './model';
import { SyncBadge } from './SyncBadge';

/**
 * A declarable record's dealings with the authority: its state, the transaction id it was
 * declared under or the reason it was refused, its deadline, and, once refused, sending it again
 * (syncToSenasa: back to pending, the outbox sends it).
 */
export function SyncPanel({ workflow, record, onChange }: { workflow: string; record: Rec; onChange: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const { ops } = useOperation();
  const [busy, setBusy] = useState(false);
  const s = syncInfo(record, new Date());
  const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : undefined);
  const rows: [string, string | undefined][] = [
    ['sync.transactionId', s.transactionId],
    ['sync.syncedAt', when(s.syncedAt)],
    ['sync.reason', s.reason],
    ['sync.deadlineLabel', when(s.deadline)],
    ['sync.attempts', s.attempts === undefined ? undefined : String(s.attempts)],
    ['sync.lastAttemptAt', when(s.lastAttemptAt)],
  ];
  const resync = async () => {
    setBusy(true);
    try {
      await ops.resync(workflow, String(record.id));
      toast({ severity: 'success', summary: t('sync.resyncQueued') });
      onChange();
    } catch (e) {
      toast({ severity: 'error', summary: errorText(e, t) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="tm-op-syncpanel" data-testid="sync-panel" data-sync={s.state}>
      <h3>{t('list.senasaSync')} <SyncBadge record={record} /></h3>
      <dl className="tm-op-fields">
        {rows.filter(([, v]) => v).map(([k, v]) => <div key={k} data-field={k}><dt>{t(k)}</dt><dd>{v}</dd></div>)}
      </dl>
      {s.state === 'failed' && <Button label={t('sync.resync')} icon="pi pi-refresh" loading={busy} onClick={() => void resync()} data-testid="sync-resync" />}
    </section>
  );
}

import { useTranslation } from 'react-i18next';
import type { Rec } from '../masterdata/api';
import { syncInfo } from './model';

/** A record's Senasa Sync state in a list cell: a refusal's reason as its tip, a pending record past its deadline marked overdue. */
export function SyncBadge({ record }: { record: Rec }) {
  const { t } = useTranslation();
  const s = syncInfo(record, new Date());
  const tip = s.reason ?? (s.deadline ? t('sync.deadline', { when: new Date(s.deadline).toLocaleString() }) : undefined);
  return (
    <span className={`tm-op-sync tm-op-sync--${s.state}${s.overdue ? ' tm-op-sync--overdue' : ''}`} data-sync={s.state} data-overdue={s.overdue || undefined} title={tip}>
      {t(`list.sync.${s.state}`)}{s.overdue && <> · {t('sync.overdue')}</>}
    </span>
  );
}

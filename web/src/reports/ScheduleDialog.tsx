import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import type { ReportDef } from '../../../engine/src/index';
import { errorText } from '../api/errorText';
import { localTime } from '../imports/logic';
import { useReports } from './context';
import type { Schedule, ScheduleBody } from './api';
import type { FilterParams } from './filters';

const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6];
const HOURS = Array.from({ length: 24 }, (_, h) => h);

/** The body that schedules the report with the applied filters: a weekday only for a weekly one. */
export function scheduleBody(frequency: 'daily' | 'weekly', weekday: number, hour: number, filters: FilterParams, sort?: string): ScheduleBody {
  return { frequency, ...(frequency === 'weekly' ? { weekday } : {}), hour, filters, ...(sort ? { sort } : {}) };
}

/**
 * Schedule: the report with the applied filters exported daily or weekly at an hour (UTC) and
 * mailed to the user as a link; lists the user's schedules of this report, each deletable.
 */
export function ScheduleDialog({ def, filters, sort, onClose }: { def: ReportDef; filters: FilterParams; sort?: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { reports } = useReports();
  const [frequency, setFrequency] = useState<'daily' | 'weekly'>('daily');
  const [weekday, setWeekday] = useState(1);
  const [hour, setHour] = useState(6);
  const [list, setList] = useState<Schedule[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const day = (d: number) => t(`reports.schedule.weekday.${d}`);

  const load = useCallback(() => reports.schedules(def.key).then(setList, (e: unknown) => { setList([]); setError(errorText(e, t)); }), [reports, def.key, t]);
  useEffect(() => { void load(); }, [load]);

  const add = () => {
    setError(null);
    reports.schedule(def.key, scheduleBody(frequency, weekday, hour, filters, sort)).then(() => void load(), (e: unknown) => setError(errorText(e, t)));
  };
  const remove = (s: Schedule) => reports.deleteSchedule(def.key, s.id).then(() => void load(), (e: unknown) => setError(errorText(e, t)));
  const when = (s: Schedule) => (s.frequency === 'weekly'
    ? t('reports.schedule.weeklyAt', { day: day(s.weekday ?? 0), hour: String(s.hour).padStart(2, '0') })
    : t('reports.schedule.dailyAt', { hour: String(s.hour).padStart(2, '0') }));

  return (
    <Dialog header={t('reports.schedule.title')} visible onHide={onClose} style={{ width: 'min(36rem, 96vw)' }} data-testid="schedule-dialog"
      footer={<Button label={t('common.close')} text onClick={onClose} />}>
      <p>{t('reports.schedule.intro')}</p>
      <div className="tm-rep-schedule">
        <label className="tm-rep-field">{t('reports.schedule.frequency')}
          <Dropdown value={frequency} data-testid="schedule-frequency" onChange={(e) => setFrequency(e.value as 'daily' | 'weekly')}
            options={[{ label: t('reports.schedule.daily'), value: 'daily' }, { label: t('reports.schedule.weekly'), value: 'weekly' }]} />
        </label>
        {frequency === 'weekly' && (
          <label className="tm-rep-field">{t('reports.schedule.day')}
            <Dropdown value={weekday} data-testid="schedule-weekday" onChange={(e) => setWeekday(e.value as number)} options={WEEKDAYS.map((d) => ({ label: day(d), value: d }))} />
          </label>
        )}
        <label className="tm-rep-field">{t('reports.schedule.hour')}
          <Dropdown value={hour} data-testid="schedule-hour" onChange={(e) => setHour(e.value as number)} options={HOURS.map((h) => ({ label: `${String(h).padStart(2, '0')}:00`, value: h }))} />
        </label>
        <Button label={t('reports.schedule.add')} icon="pi pi-clock" onClick={add} data-testid="schedule-add" />
      </div>
      {error && <small className="p-error" role="alert" data-testid="schedule-error">{error}</small>}
      <h3>{t('reports.schedule.mine')}</h3>
      {list === null && <div aria-busy="true">{t('common.loading')}</div>}
      {list?.length === 0 && <p>{t('reports.schedule.none')}</p>}
      {list && list.length > 0 && (
        <ul className="tm-rep-schedules" data-testid="schedule-list">
          {list.map((s) => (
            <li key={s.id} data-testid="schedule" data-frequency={s.frequency}>
              <span>{when(s)}</span>
              {s.nextRunAt && <small>{t('reports.schedule.next', { at: localTime(s.nextRunAt) })}</small>}
              <Button icon="pi pi-trash" text rounded severity="danger" aria-label={t('common.delete')} data-testid="schedule-delete" onClick={() => void remove(s)} />
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}

import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { interpolate, localize, type Lang, type Registry, type ReportDef } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { Mailer } from '../auth/mailer';
import type { AuthPrincipal } from '../auth/principal';
import { principalFor, tokenId } from '../auth/sessions';
import type { Store, StoredDoc } from '../store/types';
import type { ExportJobs } from './exports';
import { filterPairs, filtersOf, type ReportService } from './service';

export const SCHEDULE_COLLECTION = 'report_schedule';
export const SCHEDULE_COLLECTION_SPEC = { name: SCHEDULE_COLLECTION, uniqueKeys: [], indexes: ['userId', 'nextRunAt'] };

/** How long a mailed download link works. */
export const LINK_VALIDITY_MS = 7 * 24 * 3_600_000;
const HOUR = 3_600_000;

export interface ScheduleBody {
  frequency: 'daily' | 'weekly';
  weekday?: number;
  hour: number;
  filters?: Record<string, string>;
  sort?: string;
}

/** The first run strictly after `after`: the hour (UTC) of the next day, or of the next given weekday. */
export function nextRun(s: { frequency: 'daily' | 'weekly'; weekday?: number; hour: number }, after: Date): Date {
  const t = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), s.hour));
  while (t.getTime() <= after.getTime() || (s.frequency === 'weekly' && t.getUTCDay() !== s.weekday)) t.setTime(t.getTime() + 24 * HOUR);
  return t;
}

const shown = (d: StoredDoc) => ({
  id: d.id, report: d.report, frequency: d.frequency, ...(d.weekday !== undefined ? { weekday: d.weekday } : {}), hour: d.hour, filters: filtersOf(d.filters),
  ...(d.sort ? { sort: d.sort } : {}), email: d.email, nextRunAt: d.nextRunAt, ...(d.lastRunAt ? { lastRunAt: d.lastRunAt } : {}),
});

/**
 * Reports a user asked for daily or weekly: each due one runs as its user, with their access and
 * groups as they are then (someone who lost the report's key gets no file), and the user is
 * mailed a link to the file that works without signing in for LINK_VALIDITY_MS.
 */
export class ReportSchedules {
  private pass: Promise<number> | null = null;

  constructor(
    private readonly reg: Registry, private readonly store: Store, private readonly service: ReportService, private readonly exports: ExportJobs,
    private readonly opts: { mailer?: Mailer; publicUrl: string; log: FastifyBaseLogger; now?: () => Date },
  ) {}

  private now(): Date {
    return this.opts.now?.() ?? new Date();
  }

  async list(userId: string, def: ReportDef): Promise<{ data: Record<string, unknown>[] }> {
    const docs = await this.store.find(SCHEDULE_COLLECTION, { filter: { userId, report: def.key }, sort: { nextRunAt: 1 }, limit: 500 });
    return { data: docs.map(shown) };
  }

  /** `body.filters` and `body.sort` are checked by the caller; the selected warehouse group is kept and re-checked at each run. */
  async create(p: AuthPrincipal, def: ReportDef, body: ScheduleBody, lang: Lang): Promise<Record<string, unknown>> {
    if (body.frequency === 'weekly' && body.weekday === undefined) throw new ApiError('INVALID_REQUEST', { detail: 'a weekly schedule needs a weekday (0-6, Sunday first)' });
    const when = { frequency: body.frequency, hour: body.hour, ...(body.frequency === 'weekly' ? { weekday: body.weekday! } : {}) };
    return shown(await this.store.insert(SCHEDULE_COLLECTION, {
      userId: p.userId, report: def.key, ...when, filters: filterPairs(body.filters), ...(body.sort ? { sort: body.sort } : {}),
      email: p.email, lang, warehouse: p.selectedWarehouse ?? null, createdAt: this.now().toISOString(), nextRunAt: nextRun(when, this.now()).toISOString(),
    }));
  }

  async remove(userId: string, def: ReportDef, id: string): Promise<void> {
    const doc = await this.store.get(SCHEDULE_COLLECTION, id);
    if (!doc || doc.userId !== userId || doc.report !== def.key) throw new ApiError('RECORD_NOT_FOUND', { entity: 'schedule', id: id.slice(0, 100) });
    await this.store.delete(SCHEDULE_COLLECTION, id);
  }

  /** Runs every schedule due at `now` (one pass at a time); returns how many mails went out. */
  runDue(now: Date = this.now()): Promise<number> {
    this.pass ??= this.runPass(now).finally(() => { this.pass = null; });
    return this.pass;
  }

  private async runPass(now: Date): Promise<number> {
    const due = await this.store.find(SCHEDULE_COLLECTION, { filter: { nextRunAt: { $lte: now.toISOString() } }, sort: { nextRunAt: 1 }, limit: 1000 });
    let sent = 0;
    for (const s of due) {
      // Moved on first: a schedule that fails is tried again at its next time, not at every pass.
      await this.store.patch(SCHEDULE_COLLECTION, s.id, { lastRunAt: now.toISOString(), nextRunAt: nextRun(s as never, now).toISOString() });
      try {
        if (await this.runOne(s)) sent++;
      } catch (e) {
        this.opts.log.error({ scheduleId: s.id, reason: e instanceof Error ? e.message : String(e) }, 'scheduled report failed');
      }
    }
    return sent;
  }

  private async runOne(s: StoredDoc): Promise<boolean> {
    const def = Object.hasOwn(this.reg.reports, String(s.report)) ? this.reg.reports[String(s.report)] : undefined;
    const user = await this.store.get('user', String(s.userId));
    if (!def || !user || user.state === 3) return false;
    const p: AuthPrincipal = { ...(await principalFor(this.reg, this.store, user, 'schedule')), selectedWarehouse: (s.warehouse as string | null) ?? null };
    if (!this.service.mayRun(p, def)) return false;
    const filters = filtersOf(s.filters);
    const sort = typeof s.sort === 'string' ? s.sort : undefined;
    const query = this.service.checkedFilters(def, filters, sort);
    const token = randomBytes(32).toString('base64url');
    const lang = (s.lang as Lang | undefined) ?? 'en';
    const job = await this.exports.create({
      userId: user.id, report: def.key, fileName: def.export.fileName, filters, sort, query, scope: await this.service.scope(p, def), lang,
      tokenHash: tokenId(token), tokenExpiresAt: new Date(this.now().getTime() + LINK_VALIDITY_MS).toISOString(), scheduleId: s.id,
    });
    const done = await this.exports.finished(job.id);
    if (done?.status !== 'done') return false;
    const link = `${this.opts.publicUrl.replace(/\/+$/, '')}/api/v3/reports/exports/${job.id}/download?token=${token}`;
    if (!this.opts.mailer) {
      // As for password resets: without SMTP_URL the link is logged so an operator can pass it on.
      this.opts.log.info({ reportLink: link, userId: user.id }, 'scheduled report link (SMTP_URL is not set, so it is logged instead of mailed)');
      return false;
    }
    const text = (key: string) => interpolate(this.reg.i18n[lang]?.[key] ?? this.reg.i18n.en?.[key] ?? key, {
      name: String(user.display_name ?? user.email), report: localize(def.label, lang), rows: Number(done.rows), link, days: LINK_VALIDITY_MS / (24 * HOUR),
    });
    await this.opts.mailer.send({ to: String(user.email), subject: text('reports.mail.subject'), text: text('reports.mail.text') });
    return true;
  }
}

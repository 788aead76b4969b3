/**
 * The app's state outside React: session, language, warehouse group, connectivity, the queue
 * and its sending (on start, when the connection returns, when the app comes to the front, and
 * on a timer with backoff after failures), and the answers kept for offline use. Screens read
 * it through useMobile() and re-render on change().
 */
import { createContext, useContext, useSyncExternalStore } from 'react';
import { ApiRequestError, MobileApi } from './api';
import { Cache, type MobileDb } from './db';
import { normaliseFeature, stateOf, type RawFeature } from './definitions';
import { ActionQueue, backoff, type NewAction } from './queue';
import type { FeatureDef, Lang, MobileApp, MobileRecord, QueuedAction } from './types';

const KEYS = { session: 'tm.mobile.session', group: 'tm.mobile.group', lang: 'tm.mobile.language', persisted: 'tm.mobile.persistAsked' };

export interface Session {
  token: string;
  expiresAt?: string;
  user: { id?: string; email?: string; name?: string } | null;
  email: string;
}

function readLocal<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function writeLocal(key: string, value: unknown): void {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode: not remembered.
  }
}

export interface SyncState {
  running: boolean;
  /** The last failure's message (network or server), until a run succeeds. */
  error: string | null;
  /** The server refused the session (401): sending waits for a new sign-in. */
  needsSignIn: boolean;
}

export interface StorageState {
  persisted: boolean | null;
  usage: number | null;
  quota: number | null;
}

/** Used share of the quota above which the app warns (storage pressure). */
export const STORAGE_PRESSURE = 0.8;
const PERIODIC_MS = 60_000;
const PROBE_MS = 15_000;

export class Mobile {
  readonly api: MobileApi;
  readonly cache: Cache;
  readonly queue: ActionQueue;
  session: Session | null;
  group: string | null;
  lang: Lang;
  online: boolean;
  actions: QueuedAction[] = [];
  sync: SyncState = { running: false, error: null, needsSignIn: false };
  storage: StorageState = { persisted: null, usage: null, quota: null };
  private version = 0;
  private readonly listeners = new Set<() => void>();
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private probe: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(readonly db: MobileDb, lang: Lang, private readonly win: Window = window, fetchFn?: typeof fetch) {
    this.lang = lang;
    this.session = readLocal<Session>(KEYS.session);
    if (this.session?.expiresAt && Date.parse(this.session.expiresAt) <= Date.now()) this.session = null;
    this.group = readLocal<string>(KEYS.group);
    this.online = win.navigator.onLine;
    this.api = new MobileApi({
      token: () => this.session?.token ?? null,
      group: () => this.group,
      lang: () => this.lang,
      onNetwork: (ok) => this.setOnline(ok && this.win.navigator.onLine),
      fetchFn,
    });
    this.cache = new Cache(db);
    this.queue = new ActionQueue(db);
    this.queue.subscribe(() => void this.refreshActions());
  }

  // --- change notification (useSyncExternalStore) ---
  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  snapshot = (): number => this.version;

  change(): void {
    this.version += 1;
    for (const l of this.listeners) l();
  }

  get user(): string {
    return this.session?.user?.id ?? this.session?.email ?? '';
  }

  /** The user's actions not yet judged by the server. */
  get unsynced(): QueuedAction[] {
    return this.actions.filter((a) => a.status === 'pending' && a.user === this.user);
  }

  private setOnline(v: boolean): void {
    // The device has a network but the server did not answer: look again later (GET /api/health),
    // so the app does not stay offline until the browser's next online event, which may never come.
    if (!v && this.win.navigator.onLine && !this.probe && !this.stopped) {
      this.probe = setTimeout(() => {
        this.probe = null;
        this.api.request('GET', '/api/health').catch(() => undefined);
      }, PROBE_MS);
    }
    if (v === this.online) return;
    this.online = v;
    this.change();
    if (v) void this.syncNow();
  }

  async refreshActions(): Promise<void> {
    this.actions = await this.queue.all();
    this.change();
  }

  /** Listens for the connection and the app coming to the front, reconciles verdicts, sends. */
  start(): () => void {
    const onOnline = () => this.setOnline(true);
    const onOffline = () => this.setOnline(false);
    const onVisible = () => {
      if (this.win.document.visibilityState === 'visible') void this.syncNow();
    };
    this.win.addEventListener('online', onOnline);
    this.win.addEventListener('offline', onOffline);
    this.win.document.addEventListener('visibilitychange', onVisible);
    void this.refreshActions().then(() => this.reconcile()).then(() => this.syncNow());
    void this.checkStorage();
    return () => {
      this.stopped = true;
      if (this.timer) clearTimeout(this.timer);
      if (this.probe) clearTimeout(this.probe);
      this.win.removeEventListener('online', onOnline);
      this.win.removeEventListener('offline', onOffline);
      this.win.document.removeEventListener('visibilitychange', onVisible);
    };
  }

  // --- session ---
  async signIn(email: string, password: string): Promise<void> {
    const s = await this.api.signIn(email, password);
    this.session = { token: s.token, expiresAt: s.expiresAt, user: s.user, email };
    writeLocal(KEYS.session, this.session);
    this.sync = { ...this.sync, needsSignIn: false };
    this.change();
    void this.requestPersistence();
    void this.reconcile().then(() => this.syncNow());
  }

  /** Signs out (the caller has warned about unsynced actions): the queue stays, cached answers go. */
  async signOut(): Promise<void> {
    try {
      if (this.online) await this.api.signOut();
    } catch {
      // The token is forgotten either way.
    }
    this.session = null;
    writeLocal(KEYS.session, null);
    await this.cache.clearUser();
    this.change();
  }

  setLang(lang: Lang): void {
    this.lang = lang;
    writeLocal(KEYS.lang, lang);
    this.change();
  }

  static chosenLang(): string | null {
    return readLocal<string>(KEYS.lang);
  }

  setGroup(group: string | null): void {
    this.group = group;
    writeLocal(KEYS.group, group);
    this.change();
  }

  // --- the app's definitions ---
  /** GET /api/v3/mobile/app, kept for offline use; offline, the kept copy (null when there is none). */
  async loadApp(): Promise<{ app: MobileApp | null; at: number | null; error: string | null }> {
    try {
      const app = normaliseApp(await this.api.app());
      const c = await this.cache.set(`u:app`, app);
      return { app, at: c.at, error: null };
    } catch (e) {
      if (e instanceof ApiRequestError && e.status === 401) {
        await this.expireSession();
        return { app: null, at: null, error: null };
      }
      const c = await this.cache.get<MobileApp>('u:app');
      return { app: c?.data ?? null, at: c?.at ?? null, error: (e as Error).message };
    }
  }

  async acceptTerms(version: number): Promise<void> {
    await this.api.acceptTerms(version);
    const c = await this.cache.get<MobileApp>('u:app');
    if (c) await this.cache.set('u:app', { ...c.data, termsAccepted: version });
  }

  private async expireSession(): Promise<void> {
    this.session = null;
    writeLocal(KEYS.session, null);
    this.change();
  }

  // --- what feature screens read, kept for offline ---
  /** The feature's records: fresh when online (and kept), else the kept copy. */
  async records(feature: FeatureDef, fresh = true): Promise<{ records: MobileRecord[]; at: number | null; fromCache: boolean }> {
    const key = `u:list:${feature.id}`;
    if (fresh && this.online && feature.list) {
      try {
        const data = feature.list.source === 'stock' ? await this.api.stock() : await this.api.list(feature.workflow, feature.list.states);
        const c = await this.cache.set(key, data.map((r, i) => withState(r, i, feature)));
        return { records: c.data, at: c.at, fromCache: false };
      } catch (e) {
        if (!(e instanceof ApiRequestError) || e.status !== 0) throw e;
      }
    }
    const c = await this.cache.get<MobileRecord[]>(key);
    return { records: c?.data ?? [], at: c?.at ?? null, fromCache: true };
  }

  /**
   * An IBC by serial or NFC tag: the server's look-up when online (kept), else a kept look-up
   * or a record of a kept list with that serial. Throws the server's error (not found, …);
   * answers null offline when the device has never seen it.
   */
  async lookup(by: { serial: string } | { nfc: string }): Promise<MobileRecord | null> {
    const key = 'serial' in by ? `u:ibc:serial:${by.serial}` : `u:ibc:nfc:${by.nfc}`;
    if (this.online) {
      try {
        const rec = withState(await this.api.lookupIbc(by));
        await this.cache.set(key, rec);
        return rec;
      } catch (e) {
        if (!(e instanceof ApiRequestError) || e.status !== 0) throw e;
      }
    }
    const kept = await this.cache.get<MobileRecord>(key);
    if (kept) return kept.data;
    const field = 'serial' in by ? 'serial_number' : 'nfcTagNumber';
    const value = 'serial' in by ? by.serial : by.nfc;
    const tx = this.db.transaction('kv');
    for (const k of await tx.store.getAllKeys()) {
      if (!k.startsWith('u:list:')) continue;
      const list = (await tx.store.get(k)) as { data: MobileRecord[] } | undefined;
      const hit = list?.data.find((r) => r[field] === value);
      if (hit) return hit;
    }
    return null;
  }

  /** A reference picker's options: the entity's active records, fresh when online (and kept). */
  async options(entity: string): Promise<MobileRecord[]> {
    const key = `u:ref:${entity}`;
    if (this.online) {
      try {
        return (await this.cache.set(key, await this.api.masterdata(entity))).data;
      } catch {
        // Fall back to the kept copy.
      }
    }
    return (await this.cache.get<MobileRecord[]>(key))?.data ?? [];
  }

  // --- the queue ---
  /** Queues an action (marked offline when the device is), then sends at once when online. */
  async enqueue(a: Omit<NewAction, 'user' | 'group' | 'at' | 'offline'>): Promise<QueuedAction> {
    const queued = await this.queue.enqueue({ ...a, user: this.user, group: this.group, at: new Date().toISOString(), offline: !this.online });
    void this.checkStorage();
    if (this.online) void this.syncNow();
    return queued;
  }

  /** Asks the server for verdicts it already gave on this device's pending actions (a lost answer). */
  async reconcile(): Promise<void> {
    if (!this.session || !this.online) return;
    const pending = await this.queue.pending(this.user);
    if (!pending.length) return;
    try {
      const verdicts = await this.api.verdicts(await this.queue.deviceId(), pending[0].seq - 1);
      await this.queue.record(verdicts);
    } catch {
      // Sending gets the same verdicts back (the server applies each seq once).
    }
  }

  /** Sends the user's pending actions now; on failure retries later with backoff. */
  async syncNow(): Promise<void> {
    if (!this.session || this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const user = this.user;
    if (!(await this.queue.pending(user)).length) return;
    this.sync = { ...this.sync, running: true };
    this.change();
    try {
      const deviceId = await this.queue.deviceId();
      await this.queue.sync(user, (actions, group) => this.api.sendActions(deviceId, actions, group));
      this.failures = 0;
      this.sync = { running: false, error: null, needsSignIn: false };
    } catch (e) {
      this.failures += 1;
      const needsSignIn = e instanceof ApiRequestError && e.status === 401;
      this.sync = { running: false, error: (e as Error).message, needsSignIn };
      if (needsSignIn) await this.expireSession();
    }
    this.change();
    if (!this.stopped && !this.sync.needsSignIn && (await this.queue.pending(user)).length) {
      this.timer = setTimeout(() => void this.syncNow(), this.failures ? backoff(this.failures) : PERIODIC_MS);
    }
  }

  // --- storage ---
  /** Asks once per device for persistent storage (the queue must not be evicted). */
  async requestPersistence(): Promise<void> {
    const storage = this.win.navigator.storage;
    if (!storage?.persist) return;
    this.storage.persisted = (await storage.persisted?.()) ?? null;
    if (!this.storage.persisted) this.storage.persisted = await storage.persist();
    writeLocal(KEYS.persisted, true);
    this.change();
  }

  async checkStorage(): Promise<void> {
    const storage = this.win.navigator.storage;
    if (!storage?.estimate) return;
    const [est, persisted] = await Promise.all([storage.estimate(), storage.persisted?.() ?? Promise.resolve(null)]);
    this.storage = { persisted, usage: est.usage ?? null, quota: est.quota ?? null };
    this.change();
  }

  /** The share of the quota used, when the device tells and it is above the warning level. */
  get storagePressure(): number | null {
    const { usage, quota } = this.storage;
    if (!usage || !quota) return null;
    return usage / quota >= STORAGE_PRESSURE ? usage / quota : null;
  }
}

/** A record with its workflow state as `state` (whatever field the workflow keeps it in) and an id (a stock row has none: its position). */
function withState(r: MobileRecord, i = 0, feature?: FeatureDef): MobileRecord {
  return { ...r, id: r.id ?? `row-${i}`, state: stateOf(r, feature?.stateField) };
}

/** The app's answer with every feature in the one shape the screens read. */
function normaliseApp(app: MobileApp): MobileApp {
  return { ...app, features: (app.features ?? []).map((f) => normaliseFeature(f as RawFeature)) };
}

export const MobileContext = createContext<Mobile | null>(null);

/** The app's state, re-rendering the caller whenever it changes. */
export function useMobile(): Mobile {
  const m = useContext(MobileContext);
  if (!m) throw new Error('MobileContext is missing');
  useSyncExternalStore(m.subscribe, m.snapshot);
  return m;
}

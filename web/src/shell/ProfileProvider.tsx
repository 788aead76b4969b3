import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Lang } from '../../../engine/src/index';
import type { Profile } from '../config/types';
import { useServices } from '../app/services';
import { local } from '../app/storage';
import { useAuth } from '../auth/auth';
import { isLang } from '../i18n/language';
import { useLanguage } from '../i18n/useLanguage';
import { useFrame } from '../frame/frameContext';
import { ProfileContext, type ProfileValue } from './profileContext';

const PROFILE_ID = 'profile';

function withLanguage(p: Profile, language: Lang): Profile {
  return { ...p, primary_fields: { ...p.primary_fields, language } };
}

/**
 * SPEC 7: the profile, cached under id `profile`. The language the user chose last wins:
 * one chosen on the sign-in screen is saved to the profile after sign-in; otherwise the
 * profile's sets the interface language once per sign-in. The language menu saves its
 * choice too (when the profile can hold it), even one made before the profile has arrived.
 * Saves go one after another, and an answer never takes back a language chosen after its
 * request left. The frame is told after the deployment's delay (1 s).
 */
export function ProfileProvider({ children }: { children: ReactNode }) {
  const { api, config, keys } = useServices();
  const { session, updateSession } = useAuth();
  const { post } = useFrame();
  const [, setLanguage] = useLanguage();
  const [profile, setProfile] = useState<Profile | null>(null);
  const [loaded, setLoaded] = useState(false);
  const delay = config.deployment.settings.timings.languagePushDelayMs;
  // The profile stores the available languages only (SPEC 3.3: English or Spanish); the menu
  // may offer more (French), which stay this browser's choice.
  const available = config.deployment.settings.languages.available;
  const storable = useCallback((l: unknown): l is Lang => isLang(l) && available.includes(l), [available]);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** The profile as last read or saved (the callbacks below must not wait for a render to see it). */
  const current = useRef<Profile | null>(null);
  /** The language chosen from the menu last, in this page. */
  const chosen = useRef<Lang | undefined>(undefined);
  /** The language the server holds once the saves under way have landed (undefined: not known). */
  const held = useRef<Lang | undefined>(undefined);
  /** The saves, one after another: two PUTs in flight could land in either order. */
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const applyLanguage = useCallback((p: Profile) => {
    const lang = p.primary_fields?.language;
    if (!isLang(lang)) return;
    setLanguage(lang);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => post({ type: 'languagePref', payload: { language: lang } }), delay);
  }, [setLanguage, post, delay]);

  /**
   * Saves what `build` makes of the profile as the saves before it left it: built when its turn
   * comes, so a header choice does not send back the channel a form save is changing, nor a form
   * save the language a header choice is saving. `lang` is the language it sets, if it sets one.
   */
  const write = useCallback(async (build: (base: Profile) => Profile, lang?: Lang): Promise<Profile> => {
    if (lang) held.current = lang;
    const put = queue.current.catch(() => undefined).then(async () => {
      const body = build(current.current ?? {});
      const a = await api.put<{ detail?: Profile } | undefined>('/api/auth/profile', body);
      api.invalidate(PROFILE_ID);
      current.current = { ...body, ...(a?.detail ?? {}) };
      return current.current;
    });
    queue.current = put;
    try {
      const next = await put;
      setProfile(next);
      const saved = next.primary_fields?.language;
      if (chosen.current === undefined || chosen.current === saved) applyLanguage(next);
      return next;
    } catch (e) {
      held.current = undefined;
      throw e;
    }
  }, [api, applyLanguage]);

  /** Saves a language the interface already shows: from the menu, or the sign-in screen. */
  const saveLanguage = useCallback((lang: Lang): Promise<unknown> => {
    if (!storable(lang) || lang === held.current || !current.current) return Promise.resolve();
    return write((base) => withLanguage(base, lang), lang);
  }, [storable, write]);

  const applied = useRef(session?.profileLanguageApplied === true);
  /** What the profile's arrival does, with this render's callbacks. */
  const arrived = useRef<(p: Profile) => void>(() => undefined);
  arrived.current = (p: Profile) => {
    current.current = p;
    held.current = isLang(p.primary_fields?.language) ? p.primary_fields.language : undefined;
    setProfile(p);
    const pending = local.get(keys.languagePending);
    const settled = () => {
      applied.current = true;
      updateSession({ profileLanguageApplied: true });
    };
    if (chosen.current) {
      // Chosen from the menu while the profile was on its way: that choice wins.
      local.remove(keys.languagePending);
      void saveLanguage(chosen.current).catch((e: unknown) => console.error('profile language not saved', e));
      settled();
    } else if (applied.current) {
      // The profile's language was applied earlier in this session.
    } else if (storable(pending)) {
      // The sign-in screen's choice, forgotten only once saved: a save that failed is tried again at the next load.
      applied.current = true;
      void saveLanguage(pending).then(() => {
        local.remove(keys.languagePending);
        settled();
      }).catch((e: unknown) => console.error('profile language not saved', e));
    } else {
      local.remove(keys.languagePending);
      if (!isLang(pending)) applyLanguage(p);
      settled();
    }
  };

  // Read once: running again when a callback changes would take the server's copy, perhaps older than a save under way, for the truth.
  useEffect(() => {
    let live = true;
    api.get<{ detail?: Profile }>('/api/auth/profile', { cacheId: PROFILE_ID })
      .then((a) => { if (live) arrived.current(a.detail ?? {}); })
      .catch((e: unknown) => console.error('profile failed', e))
      .finally(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, [api]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const save = useCallback(async (p: Profile) => {
    // The form's language, when the user changed it there, is their latest choice; left as the form
    // read it, it gives way to one the header is saving.
    const lang = p.primary_fields?.language;
    const changed = lang !== current.current?.primary_fields?.language;
    if (changed) chosen.current = undefined;
    await write((base) => ({ ...base, ...p, primary_fields: { ...p.primary_fields, ...(changed || !base.primary_fields?.language ? {} : { language: base.primary_fields.language }) } }), changed && storable(lang) ? lang : undefined);
  }, [write, storable]);

  const chooseLanguage = useCallback((lang: Lang) => {
    chosen.current = lang;
    // Later than the sign-in screen's choice, should that one still wait to be saved.
    local.remove(keys.languagePending);
    // A profile's language still waiting to be told to the frame is no longer the one shown.
    clearTimeout(timer.current);
    setLanguage(lang);
    void saveLanguage(lang).catch((e: unknown) => console.error('profile language not saved', e));
  }, [saveLanguage, setLanguage, keys.languagePending]);

  const value = useMemo<ProfileValue>(() => ({ profile, loaded, save, chooseLanguage }), [profile, loaded, save, chooseLanguage]);
  return <ProfileContext.Provider value={value}>{children}</ProfileContext.Provider>;
}

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
 * choice too (when the profile can hold it). The frame is told after the deployment's delay (1 s).
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

  const applyLanguage = useCallback((p: Profile) => {
    const lang = p.primary_fields?.language;
    if (!isLang(lang)) return;
    setLanguage(lang);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => post({ type: 'languagePref', payload: { language: lang } }), delay);
  }, [setLanguage, post, delay]);

  const applied = useRef(session?.profileLanguageApplied === true);
  // A language chosen from the menu before the profile arrived: it wins over the profile's.
  const chosenEarly = useRef<Lang | undefined>(undefined);
  useEffect(() => {
    let live = true;
    api.get<{ detail?: Profile }>('/api/auth/profile', { cacheId: PROFILE_ID })
      .then((a) => {
        if (!live) return;
        const p = a.detail ?? {};
        setProfile(p);
        const early = chosenEarly.current;
        chosenEarly.current = undefined;
        if (!applied.current || early) {
          applied.current = true;
          updateSession({ profileLanguageApplied: true });
          const pending = early ?? local.get(keys.languagePending);
          local.remove(keys.languagePending);
          if (storable(pending) && pending !== p.primary_fields?.language) void saveRef.current(withLanguage(p, pending)).catch((e: unknown) => console.error('profile language not saved', e));
          else if (!isLang(pending)) applyLanguage(p);
        }
      })
      .catch((e: unknown) => console.error('profile failed', e))
      .finally(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, [api, applyLanguage, updateSession, keys.languagePending, storable]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const save = useCallback(async (p: Profile) => {
    const a = await api.put<{ detail?: Profile } | undefined>('/api/auth/profile', p);
    api.invalidate(PROFILE_ID);
    const next = { ...p, ...(a?.detail ?? {}) };
    setProfile(next);
    applyLanguage(next);
  }, [api, applyLanguage]);

  const saveRef = useRef(save);
  saveRef.current = save;
  const chooseLanguage = useCallback((lang: Lang) => {
    setLanguage(lang);
    if (!profile) chosenEarly.current = lang;
    else if (storable(lang) && lang !== profile.primary_fields?.language) void save(withLanguage(profile, lang)).catch((e: unknown) => console.error('profile language not saved', e));
  }, [profile, save, setLanguage, storable]);

  const value = useMemo<ProfileValue>(() => ({ profile, loaded, save, chooseLanguage }), [profile, loaded, save, chooseLanguage]);
  return <ProfileContext.Provider value={value}>{children}</ProfileContext.Provider>;
}

import { createContext, useContext } from 'react';
import type { Lang } from '../../../engine/src/index';
import type { Profile } from '../config/types';

export interface ProfileValue {
  /** null until loaded, or when the profile cannot be read. */
  profile: Profile | null;
  loaded: boolean;
  save(profile: Profile): Promise<void>;
  /** Sets the interface language and saves it to the profile (the latest choice wins). */
  chooseLanguage(lang: Lang): void;
}

export const ProfileContext = createContext<ProfileValue | null>(null);

export function useProfile(): ProfileValue {
  const p = useContext(ProfileContext);
  if (!p) throw new Error('ProfileContext is missing');
  return p;
}

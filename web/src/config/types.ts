import type { DeploymentSettings, FixedRouteDef, I18nBundle, Lang, LocalText } from '../../../engine/src/index';

/** The settings the screens before sign-in need (GET /api/config/public). */
export type PublicSettings = Pick<
  DeploymentSettings,
  'defaultLocale' | 'languages' | 'toast' | 'timings' | 'passwordStrength' | 'terms' | 'version' | 'apiCache' | 'frame'
> & {
  logo: string | null;
  signIn: { providers: DeploymentSettings['signIn']['providers']; accountExpiry: string | null };
};

export interface PublicConfig {
  deployment: { name: string; label?: LocalText | string; settings: PublicSettings };
  i18n: Partial<Record<Lang, I18nBundle>>;
  routes: FixedRouteDef[];
}

/** The signed-in user as the sign-in answer and the profile describe it. */
export interface SessionUser {
  id?: string;
  email: string;
  display_name?: string;
  photo?: string | { id?: string; name?: string; url?: string } | null;
}

/** GET/PUT /api/auth/profile. */
export interface Profile {
  primary_fields?: { language?: string };
  notification_channel?: string;
  display_name?: string;
  email?: string;
  photo?: SessionUser['photo'];
}

/* Generated from schemas/entities/user.json by `npm run gen`. Do not edit. */

export interface User {
  /**
   * E-mail
   */
  email: string;
  /**
   * Display name
   */
  display_name: string;
  /**
   * Photo
   */
  photo?: {
    id?: string;
    name?: string;
    size?: number;
    contentType?: string;
  };
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * Groups
   *
   * @maxItems 1000
   */
  groups?: (string | number | {})[];
  /**
   * Permission templates
   *
   * @maxItems 1000
   */
  templates?: string[];
  /**
   * Profiles
   *
   * @maxItems 1000
   */
  profiles?: string[];
  /**
   * Additional access
   *
   * @maxItems 1000
   */
  access?: string[];
  /**
   * Organisation
   */
  organisation?: string | number | {};
  /**
   * Language
   */
  language?: ('en' | 'es' | 'fr') & string;
  /**
   * Notification channel
   */
  notification_channel?: ('local' | 'email') & string;
  /**
   * Password hash
   */
  password_hash?: string;
  /**
   * Last sign-in
   */
  last_sign_in?: string;
  /**
   * ID
   */
  id?: string;
}

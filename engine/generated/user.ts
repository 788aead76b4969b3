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
   */
  groups?: (string | number | {})[];
  /**
   * Permission templates
   */
  templates?: string[];
  /**
   * Profiles
   */
  profiles?: string[];
  /**
   * Additional access
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

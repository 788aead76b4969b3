/* Generated from schemas/extensions/userProfile.json by `npm run gen`. Do not edit. */

export interface UserProfile {
  /**
   * Notifications
   */
  notification_channel: ('local' | 'email') & string;
  /**
   * Preferences
   */
  primary_fields?: {
    /**
     * Language
     */
    language: ('en' | 'es') & string;
  };
}

/* Generated from schemas/entities/organisation.json by `npm run gen`. Do not edit. */

export interface Organisation {
  /**
   * Name
   */
  name: string;
  /**
   * Account expiry
   */
  account_expiry?: string;
  /**
   * Sign-in providers
   *
   * @maxItems 1000
   */
  providers?: (('google' | 'github' | 'facebook' | 'twitter' | 'saml' | 'email') & string)[];
  /**
   * E.g. example.com. Empty: any domain.
   *
   * @maxItems 1000
   */
  allowed_domains?: string[];
  /**
   * State
   */
  state: number & (1 | 3);
  /**
   * ID
   */
  id?: string;
}

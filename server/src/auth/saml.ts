import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { SamlProviderConfig } from '../config';

/** Where IdPs put the e-mail when the NameID is not it. */
const EMAIL_ATTRIBUTES = ['email', 'mail', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const SAML_MAX_AGE_MS = 10 * 60_000;

export interface SamlIdentity {
  email: string | null;
  /** Identifies this assertion for the replay guard: the IdP's entity id and the signed assertion's ID. */
  assertionKey: string;
}

/**
 * SAML 2.0 through @node-saml/node-saml: SP-initiated (HTTP-Redirect AuthnRequest) or
 * IdP-initiated sign-in, with the assertion's signature required (the response's optional),
 * audience, recipient and time conditions checked by the library.
 */
export class SamlProvider {
  readonly saml: SAML;

  /** `requests` keeps our AuthnRequest ids (store-backed, so any instance can check InResponseTo). */
  constructor(cfg: SamlProviderConfig, callbackUrl: string, requests: CacheProvider, requestTtlMs: number) {
    this.saml = new SAML({
      entryPoint: cfg.entryPoint,
      idpCert: cfg.idpCert,
      issuer: cfg.issuer,
      idpIssuer: cfg.idpIssuer,
      audience: cfg.audience,
      callbackUrl,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      // Checked when the response names a request of ours; IdP-initiated responses name none.
      validateInResponseTo: ValidateInResponseTo.ifPresent,
      cacheProvider: requests,
      requestIdExpirationPeriodMs: requestTtlMs,
      acceptedClockSkewMs: 60_000,
      // An assertion is good for at most this long after it was issued, whatever its own
      // NotOnOrAfter says, which bounds how long the replay guard must remember it.
      maxAssertionAgeMs: SAML_MAX_AGE_MS,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    });
  }

  authorizeUrl(): Promise<string> {
    return this.saml.getAuthorizeUrlAsync('', undefined, {});
  }

  metadata(): string {
    return this.saml.generateServiceProviderMetadata(null, null);
  }

  /** Validates a posted SAMLResponse; throws when the signature, audience or conditions are wrong. */
  async identity(samlResponse: string): Promise<SamlIdentity> {
    const { profile } = await this.saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
    if (!profile) throw new Error('the response holds no assertion');
    return { email: emailOf(profile), assertionKey: `${profile.issuer}|${assertionId(profile)}` };
  }
}

function emailOf(profile: Profile): string | null {
  const candidates = [...EMAIL_ATTRIBUTES.map((a) => profile[a]), profile.nameID];
  for (const c of candidates) {
    const v = Array.isArray(c) ? c[0] : c;
    if (typeof v === 'string' && EMAIL.test(v)) return v;
  }
  return null;
}

/** The ID of the assertion the library verified (its signature covers it), read from that assertion's own start tag. */
function assertionId(profile: Profile): string {
  const xml = profile.getAssertionXml?.() ?? '';
  const m = /^\s*<(?:[\w.-]+:)?Assertion\b[^>]*?\sID\s*=\s*["']([^"']+)["']/.exec(xml);
  if (!m) throw new Error('the assertion has no ID');
  return m[1];
}

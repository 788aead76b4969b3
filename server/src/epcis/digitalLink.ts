/**
 * One spelling per identifier: EPC URIs (`urn:epc:id:sgtin:…`, `urn:epc:class:lgtin:…`,
 * `urn:epc:idpat:sgtin:…*`) become their canonical GS1 Digital Link URI, and Digital Link URIs
 * are constrained (the id.gs1.org domain, no query string, the finest key only), as the event
 * hash asks (CBV 2.0, 8.9). MATCH_* queries compare identifiers in this spelling too, so an EPC
 * captured as a URN is found by its Digital Link and the other way round. Anything else is kept.
 */

const DL = 'https://id.gs1.org';

/** GS1 modulo-10 check digit of a digit string (weights 3, 1, 3… from the right). */
export function checkDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return String((10 - (sum % 10)) % 10);
}

const digitsOnly = (...parts: string[]) => parts.every((p) => /^\d+$/.test(p));

/** The 14-digit GTIN of an SGTIN/LGTIN's company prefix and indicator + item reference. */
function gtin(cp: string, item: string): string | undefined {
  if (!digitsOnly(cp, item) || cp.length + item.length !== 13) return undefined;
  const body = item[0] + cp + item.slice(1);
  return body + checkDigit(body);
}

/** A 13-digit key (GLN, GDTI's and GRAI's base…) from company prefix and reference, with its check digit. */
function key13(cp: string, ref: string): string | undefined {
  if (!digitsOnly(cp, ref) || cp.length + ref.length !== 12) return undefined;
  return cp + ref + checkDigit(cp + ref);
}

type Scheme = (parts: string[]) => string | undefined;

const ID_SCHEMES: Record<string, Scheme> = {
  sgtin: ([cp, item, serial]) => { const g = gtin(cp, item); return g && serial !== undefined ? `/01/${g}/21/${serial}` : undefined; },
  sscc: ([cp, ref]) => {
    if (!digitsOnly(cp, ref) || cp.length + ref.length !== 17) return undefined;
    const body = ref[0] + cp + ref.slice(1);
    return `/00/${body}${checkDigit(body)}`;
  },
  sgln: ([cp, loc, ext]) => { const g = key13(cp, loc); return g ? `/414/${g}${ext && ext !== '0' ? `/254/${ext}` : ''}` : undefined; },
  pgln: ([cp, party]) => { const g = key13(cp, party); return g ? `/417/${g}` : undefined; },
  grai: ([cp, type, serial]) => { const g = key13(cp, type); return g ? `/8003/0${g}${serial ?? ''}` : undefined; },
  giai: ([cp, ref]) => (digitsOnly(cp) && ref ? `/8004/${cp}${ref}` : undefined),
  gsrn: ([cp, ref]) => (digitsOnly(cp, ref) && cp.length + ref.length === 17 ? `/8018/${cp}${ref}${checkDigit(cp + ref)}` : undefined),
  gsrnp: ([cp, ref]) => (digitsOnly(cp, ref) && cp.length + ref.length === 17 ? `/8017/${cp}${ref}${checkDigit(cp + ref)}` : undefined),
  gdti: ([cp, type, serial]) => { const g = key13(cp, type); return g ? `/253/${g}${serial ?? ''}` : undefined; },
  sgcn: ([cp, ref, serial]) => { const g = key13(cp, ref); return g ? `/255/${g}${serial ?? ''}` : undefined; },
  ginc: ([cp, ref]) => (digitsOnly(cp) && ref ? `/401/${cp}${ref}` : undefined),
  gsin: ([cp, ref]) => (digitsOnly(cp, ref) && cp.length + ref.length === 16 ? `/402/${cp}${ref}${checkDigit(cp + ref)}` : undefined),
  cpi: ([cp, ref, serial]) => (digitsOnly(cp) && ref && serial !== undefined ? `/8010/${cp}${ref}/8011/${serial}` : undefined),
};

/** Primary keys and the qualifiers a constrained Digital Link keeps with them, finest first. */
const PRIMARY: Record<string, string[]> = {
  '00': [], '01': ['21', '10', '235'], '253': [], '255': [], '401': [], '402': [], '414': ['254'], '417': [],
  '8003': [], '8004': [], '8006': ['21', '10'], '8010': ['8011'], '8017': [], '8018': [],
};

const ALPHANUMERIC = new Set(['8004', '401', '8010']);

/** A Digital Link URI on any domain, constrained; undefined when the path holds no GS1 primary key. */
function constrainDigitalLink(uri: string): string | undefined {
  if (!/^https?:\/\//.test(uri) || !URL.canParse(uri)) return undefined;
  const segs = new URL(uri).pathname.split('/').filter(Boolean);
  // A numeric key's value is digits (8004, 401 and 8010 take any characters).
  const at = segs.findIndex((s, i) => Object.hasOwn(PRIMARY, s) && i + 1 < segs.length && (ALPHANUMERIC.has(s) || /^\d+$/.test(segs[i + 1])));
  if (at < 0) return undefined;
  let key = segs[at + 1];
  if (segs[at] === '01' && /^\d{8,14}$/.test(key)) key = key.padStart(14, '0');
  const pairs = new Map<string, string>();
  for (let i = at + 2; i + 1 < segs.length; i += 2) pairs.set(segs[i], segs[i + 1]);
  const qualifier = PRIMARY[segs[at]].find((q) => pairs.has(q));
  return `${DL}/${segs[at]}/${key}${qualifier ? `/${qualifier}/${pairs.get(qualifier)}` : ''}`;
}

/** The canonical Digital Link of an EPC URI, or undefined for anything else. */
function fromEpcUri(uri: string): string | undefined {
  const m = /^urn:epc:(id|class|idpat):([a-z]+):(.+)$/.exec(uri);
  if (!m) return undefined;
  const [, kind, scheme, rest] = m;
  const parts = rest.split('.');
  if (kind === 'id') {
    const path = Object.hasOwn(ID_SCHEMES, scheme) ? ID_SCHEMES[scheme](parts) : undefined;
    return path ? DL + path : undefined;
  }
  if (kind === 'class' && scheme === 'lgtin' && parts.length >= 3) {
    const g = gtin(parts[0], parts[1]);
    return g ? `${DL}/01/${g}/10/${parts.slice(2).join('.')}` : undefined;
  }
  // A pattern of every serial of one GTIN names the GTIN (its class).
  if (kind === 'idpat' && scheme === 'sgtin' && parts.length === 3 && parts[2] === '*') {
    const g = gtin(parts[0], parts[1]);
    return g ? `${DL}/01/${g}` : undefined;
  }
  return undefined;
}

/**
 * Identifiers repeat (a lot's class, a site's location in every event there): their spellings are
 * remembered, up to a bound, since a capture of 500 events asks for thousands.
 */
const spelt = new Map<string, string>();
const SPELT_MAX = 50_000;

/** The one spelling of an identifier (trimmed; EPC URI or Digital Link made canonical). */
export function canonicalId(uri: string): string {
  let out = spelt.get(uri);
  if (out !== undefined) return out;
  const v = uri.trim();
  out = fromEpcUri(v) ?? constrainDigitalLink(v) ?? v;
  if (spelt.size >= SPELT_MAX) spelt.clear();
  spelt.set(uri, out);
  return out;
}

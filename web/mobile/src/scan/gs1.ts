/**
 * What a scanned code says about an IBC: its serial number. Minimal GS1 parsing, enough for
 * the codes on returnable containers:
 *
 * - a GS1 element string from a DataMatrix or QR (`]d2`/`]Q3` symbology prefix, FNC1 as the
 *   GS character \u001d, or the human-readable `(8003)…(21)…` form);
 * - a GS1 Digital Link URL (`https://id.example.com/8003/0…/21/…`);
 * - any other text, or a URL with a `serial` query parameter.
 *
 * The serial is, in order: AI 21 (serial number); the serial part of AI 8003 (GRAI: "0",
 * the 13-digit asset type with its check digit, then the optional serial); AI 8004 (GIAI, the
 * individual asset identifier, whole); otherwise the text itself, trimmed.
 */

/** Application identifiers of a fixed length (value digits), by prefix (GS1 General Specifications 3.2). */
const FIXED: Record<string, number> = {
  '00': 18, '01': 14, '02': 14, '03': 14, '04': 16, '11': 6, '12': 6, '13': 6, '14': 6, '15': 6, '16': 6, '17': 6, '18': 6, '19': 6, '20': 2,
  '31': 6, '32': 6, '33': 6, '34': 6, '35': 6, '36': 6, '41': 13,
};

/** How many digits the AI at the start of `s` has (2, 3 or 4), or 0 for none known. */
function aiLength(s: string): number {
  const two = s.slice(0, 2);
  if (/^(0[0-4]|1[0-9]|2[0-2]|30|37|9[0-9])$/.test(two)) return 2;
  if (/^(2[3-5]|4[0-2])$/.test(two)) return 3;
  if (/^(3[1-69]|7[0-2]|80|81|82)$/.test(two)) return 4;
  return 0;
}

function fixedLength(ai: string): number | undefined {
  return FIXED[ai] ?? FIXED[ai.slice(0, 2)];
}

const GS = '\u001d';

/** The AIs of a GS1 element string (FNC1-separated or with parentheses); null when it is not one. */
export function parseElementString(input: string): Record<string, string> | null {
  let s = input.replace(/^\][A-Za-z]\d/, '');
  if (s.startsWith('(')) {
    const out: Record<string, string> = {};
    const re = /\((\d{2,4})\)([^(]*)/g;
    let m: RegExpExecArray | null;
    let consumed = 0;
    while ((m = re.exec(s))) {
      out[m[1]] = m[2].replace(new RegExp(GS, 'g'), '').trim();
      consumed += m[0].length;
    }
    return consumed === s.length && Object.keys(out).length ? out : null;
  }
  const symbology = /^\](d2|Q3|C1|e0)/.test(input);
  if (!symbology && !s.startsWith(GS) && !s.includes(GS)) return null;
  s = s.replace(new RegExp(`^${GS}+`), '');
  const out: Record<string, string> = {};
  while (s.length) {
    const n = aiLength(s);
    if (!n) return null;
    const ai = s.slice(0, n);
    s = s.slice(n);
    const fixed = fixedLength(ai);
    let value: string;
    if (fixed !== undefined) {
      value = s.slice(0, fixed);
      s = s.slice(fixed);
      if (s.startsWith(GS)) s = s.slice(1);
    } else {
      const end = s.indexOf(GS);
      value = end < 0 ? s : s.slice(0, end);
      s = end < 0 ? '' : s.slice(end + 1);
    }
    out[ai] = value;
  }
  return Object.keys(out).length ? out : null;
}

/** The AIs of a GS1 Digital Link URI's path (`/01/…/21/…`, `/8003/…`), or null. */
export function parseDigitalLink(input: string): Record<string, string> | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  const parts = url.pathname.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  const start = parts.findIndex((p, i) => /^(01|8003|8004|00|414|417|8006|8010|8018)$/.test(p) && i + 1 < parts.length);
  if (start < 0) return null;
  const out: Record<string, string> = {};
  for (let i = start; i + 1 < parts.length; i += 2) {
    if (!/^\d{2,4}$/.test(parts[i])) break;
    out[parts[i]] = parts[i + 1];
  }
  for (const [k, v] of url.searchParams) if (/^\d{2,4}$/.test(k)) out[k] = v;
  return out;
}

/** The serial of a GRAI (AI 8003's value): what follows the leading 0 and the 13-digit asset type. */
function graiSerial(grai: string): string {
  return grai.slice(14);
}

export interface ScanResult {
  /** The IBC serial to look up. */
  serial: string;
  /** The GS1 AIs the code held, when it was a GS1 code. */
  gs1?: Record<string, string>;
}

/** The serial a scanned or typed code names (see the file comment); null for an empty code. */
export function parseScan(raw: string): ScanResult | null {
  const text = raw.replace(/[\r\n]+$/g, '').trim();
  if (!text) return null;
  const gs1 = parseDigitalLink(text) ?? parseElementString(text);
  if (gs1) {
    const serial = gs1['21'] || (gs1['8003'] ? graiSerial(gs1['8003']) : '') || gs1['8004'] || '';
    if (serial) return { serial, gs1 };
  }
  if (/^https?:\/\//i.test(text)) {
    try {
      const s = new URL(text).searchParams.get('serial');
      if (s) return { serial: s.trim() };
    } catch {
      // Not a URL after all: the text is the serial.
    }
  }
  return { serial: text.replace(/^\][A-Za-z]\d/, '') };
}

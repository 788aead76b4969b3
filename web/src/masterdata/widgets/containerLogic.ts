/**
 * The container list's pure parts (lines `{ibc, ibcNumber, …}` of an operation over IBCs):
 * finding a typed or scanned IBC by serial number, else by NFC tag, and adding it to the lines
 * once. ContainerLines.tsx draws it.
 */
import { ApiRequestError } from '../../api/errors';

type Rec = Record<string, unknown>;

/** What the list needs from the form it is in (operation forms put it in formContext). */
export interface ContainerScope {
  /** The IBC with this serial number or NFC tag; rejects with the server's 404 when unknown. */
  lookup(by: { serial: string } | { nfc: string }): Promise<Rec>;
}

/** The line fields naming the IBC: its id (the reference) and its serial number. */
export const IBC_REF = 'ibc';
export const IBC_NUMBER = 'ibcNumber';

const is404 = (e: unknown) => e instanceof ApiRequestError && e.status === 404;

/**
 * The IBC a typed value names: by serial number first, then by NFC tag (a scanner gives
 * either); when neither knows it, the serial look-up's 404 (which names the value) is thrown.
 */
export async function findContainer(scope: ContainerScope, text: string): Promise<Rec> {
  const value = text.trim();
  try {
    return await scope.lookup({ serial: value });
  } catch (bySerial) {
    if (!is404(bySerial)) throw bySerial;
    try {
      return await scope.lookup({ nfc: value });
    } catch (byTag) {
      throw is404(byTag) ? bySerial : byTag;
    }
  }
}

export type AddResult = { lines: Rec[] } | { duplicate: string };

/**
 * The lines with the IBC added at the end, or the serial already listed (by id or serial).
 * `withNumber`: the lines carry the serial beside the id (container lines do; a bulk
 * fractionation's IBC lines name the id only).
 */
export function addContainer(lines: readonly Rec[], ibc: Rec, withNumber = true): AddResult {
  const id = String(ibc.id ?? '');
  const serial = String(ibc.serial_number ?? '');
  if (lines.some((l) => (id && l[IBC_REF] === id) || (serial && l[IBC_NUMBER] === serial))) return { duplicate: serial || id };
  return { lines: [...lines, withNumber ? { [IBC_REF]: id, [IBC_NUMBER]: serial } : { [IBC_REF]: id }] };
}

/** The lines without the one at `index`. */
export function removeContainer(lines: readonly Rec[], index: number): Rec[] {
  return lines.filter((_, i) => i !== index);
}

/** Whether a line names an IBC (by id or serial). */
const namesIbc = (l: Rec) => (typeof l[IBC_REF] === 'string' && l[IBC_REF] !== '') || (typeof l[IBC_NUMBER] === 'string' && l[IBC_NUMBER] !== '');

/**
 * The lines as an array whatever the form holds, without those naming no IBC: a form starts a
 * required list with one blank line, which here would be a line without a container (and,
 * kept, would shift every typed field onto the line before its IBC).
 */
export function containerLines(value: unknown): Rec[] {
  return Array.isArray(value) ? value.filter((l): l is Rec => typeof l === 'object' && l !== null && namesIbc(l)) : [];
}

/**
 * What an uploaded file is, from its bytes: the declared type and the extension are never
 * trusted. Binary formats are recognised by file-type (magic numbers, kept up to date there);
 * file-type does not detect text, so UTF-8 text without control characters is told apart here.
 */
import { fileTypeFromBuffer } from 'file-type';

export interface Sniffed {
  /** The content type the bytes show; application/octet-stream when none is recognised. */
  mime: string;
  /** The extension that type goes by (file-type's: jpg for JPEG), or '' when unrecognised. */
  ext: string;
}

const UNKNOWN: Sniffed = { mime: 'application/octet-stream', ext: '' };
/** Bytes looked at to call a file text: enough to see a binary header, little to decode. */
const TEXT_PROBE = 4096;
/** Control characters never found in text files (tab, line feed, form feed and return are). */
const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/;
const TEXT_TYPES: Record<string, Sniffed> = { csv: { mime: 'text/csv', ext: 'csv' } };
const PLAIN: Sniffed = { mime: 'text/plain', ext: 'txt' };

function extensionOf(fileName: string): string {
  return fileName.includes('.') ? fileName.split('.').pop()!.toLowerCase() : '';
}

function isText(content: Uint8Array): boolean {
  try {
    // stream: a character cut at the end of the probe is not an error.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(content.subarray(0, TEXT_PROBE), { stream: true });
    return !CONTROL.test(text);
  } catch {
    return false;
  }
}

/**
 * The type of a file's content. Text is text/plain, or the text type its name claims
 * (a .csv is text/csv): a name can narrow what text is, never make text an image.
 */
export async function sniffType(content: Uint8Array, fileName: string): Promise<Sniffed> {
  const found = await fileTypeFromBuffer(content);
  if (found) return { mime: found.mime, ext: found.ext };
  if (content.length === 0 || !isText(content)) return UNKNOWN;
  return TEXT_TYPES[extensionOf(fileName)] ?? PLAIN;
}

const SAME_EXT: Record<string, string> = { jpeg: 'jpg', text: 'txt' };

/** Whether sniffed content satisfies a field's `accept` list (types, `type/*`, or `.ext` — which the content must be too). */
export function accepts(accept: readonly string[] | undefined, type: Sniffed, fileName: string): boolean {
  if (!accept?.length) return true;
  const norm = (ext: string) => SAME_EXT[ext] ?? ext;
  const ext = extensionOf(fileName);
  return accept.some((a) => {
    if (a.startsWith('.')) return ext !== '' && norm(a.slice(1).toLowerCase()) === norm(ext) && norm(ext) === norm(type.ext);
    if (a.endsWith('/*')) return type.mime.startsWith(a.slice(0, -1));
    return a === type.mime;
  });
}

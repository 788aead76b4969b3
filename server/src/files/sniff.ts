/** Magic numbers of the types file fields accept; the declared type and the extension are never trusted. */
const SIGNATURES: { type: string; test: (b: Uint8Array) => boolean }[] = [
  { type: 'application/pdf', test: (b) => ascii(b, 0, 5) === '%PDF-' },
  { type: 'image/png', test: (b) => b[0] === 0x89 && ascii(b, 1, 4) === 'PNG' },
  { type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', test: (b) => ascii(b, 0, 4) === 'GIF8' },
  { type: 'image/webp', test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP' },
  { type: 'application/zip', test: (b) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04 },
];

function ascii(b: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...b.subarray(start, start + length));
}

/** The content type the bytes show, or application/octet-stream when none is recognised. */
export function sniffType(head: Uint8Array): string {
  return SIGNATURES.find((s) => s.test(head))?.type ?? 'application/octet-stream';
}

/** Whether a sniffed type satisfies a field's `accept` list (types, `type/*`, or `.ext`). */
export function accepts(accept: readonly string[] | undefined, type: string, fileName: string): boolean {
  if (!accept?.length) return true;
  const ext = fileName.includes('.') ? `.${fileName.split('.').pop()!.toLowerCase()}` : '';
  return accept.some((a) => {
    if (a.startsWith('.')) return a.toLowerCase() === ext && sniffedAs(a) === type;
    if (a.endsWith('/*')) return type.startsWith(a.slice(0, -1));
    return a === type;
  });
}

const EXT_TYPES: Record<string, string> = { '.pdf': 'application/pdf', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' };
function sniffedAs(ext: string): string | undefined {
  return EXT_TYPES[ext.toLowerCase()];
}

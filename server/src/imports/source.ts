/**
 * Reading an uploaded file: what it is (gzip, encoding, delimiter, header), and its records,
 * streamed in chunks with back-pressure so no more than a chunk of rows is ever in memory.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';
import Papa from 'papaparse';

export type Encoding = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

export interface FileFormat {
  gzip: boolean;
  encoding: Encoding;
  delimiter: string;
}

export interface Sniffed {
  format: FileFormat;
  /** Set when the file is plainly not a CSV file: what it looks like instead. */
  notCsv?: string;
  empty: boolean;
  header: string[];
  /** False only when the whole file was read and holds no data row. */
  hasRows: boolean;
}

const SNIFF_BYTES = 64 * 1024;

const MAGIC: [number[], string][] = [
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive or an Excel .xlsx workbook'],
  [[0xd0, 0xcf, 0x11, 0xe0], 'an Excel .xls workbook'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0x7b, 0x5c, 0x72, 0x74, 0x66], 'an RTF document'],
];

const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);

/** Reads the first bytes of a file, decompressed when it is gzip. */
async function head(path: string): Promise<{ bytes: Buffer; gzip: boolean; whole: boolean }> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    const raw = buf.subarray(0, bytesRead);
    const size = (await fh.stat()).size;
    if (raw[0] !== 0x1f || raw[1] !== 0x8b) return { bytes: raw, gzip: false, whole: size <= SNIFF_BYTES };
    // Enough of the stream to sniff: gunzip what we have, tolerating the cut-off end.
    let out: Buffer;
    try {
      out = gunzipSync(raw, { finishFlush: 2 /* Z_SYNC_FLUSH */ });
    } catch {
      out = Buffer.alloc(0);
    }
    return { bytes: out.subarray(0, SNIFF_BYTES), gzip: true, whole: size <= SNIFF_BYTES && out.length < SNIFF_BYTES };
  } finally {
    await fh.close();
  }
}

function encodingOf(b: Uint8Array): Encoding {
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  try {
    // Cut at a line end so a character split by the sniff window is not taken for Latin-1.
    const end = b.length === SNIFF_BYTES ? b.lastIndexOf(0x0a) + 1 || b.length : b.length;
    new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(0, end));
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** The delimiter the header line uses most, outside quotes: comma, semicolon (Spanish Excel) or tab. */
export function detectDelimiter(firstLine: string): string {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch in counts) counts[ch]++;
  }
  const [best, n] = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
  return n > 0 ? best : ',';
}

/** Looks at the start of a file: enough to refuse it at once or to map its header. */
export async function sniff(path: string): Promise<Sniffed> {
  const { bytes, gzip, whole } = await head(path);
  const format: FileFormat = { gzip, encoding: encodingOf(bytes), delimiter: ',' };
  const base = { format, empty: false, header: [] as string[], hasRows: true };
  for (const [sig, what] of MAGIC) if (startsWith(bytes, sig)) return { ...base, notCsv: what };
  if (format.encoding.startsWith('utf-8') || format.encoding === 'windows-1252') {
    if (bytes.includes(0)) return { ...base, notCsv: 'a binary file' };
  }
  const text = new TextDecoder(format.encoding).decode(bytes);
  if (text.trim() === '') return { ...base, empty: true, hasRows: false };
  const firstLine = text.split(/\r\n|\n|\r/, 1)[0];
  format.delimiter = detectDelimiter(firstLine);
  const parsed = Papa.parse<string[]>(whole ? text : text.slice(0, Math.max(text.lastIndexOf('\n'), firstLine.length)), { delimiter: format.delimiter, skipEmptyLines: false });
  const rows = parsed.data;
  const header = rows[0] ?? [];
  const hasRows = !whole || rows.slice(1).some((r) => r.some((c) => c.trim() !== ''));
  return { format, empty: false, header, hasRows };
}

export class EncodingError extends Error {
  constructor() {
    super('the file is not valid UTF-8');
  }
}

export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`decompressed content over ${limit} bytes`);
  }
}

export class TooManyRowsError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} data rows`);
  }
}

/** The file's bytes, gunzipped when needed, failing past maxBytes of content (gzip bombs). */
export function openBytes(path: string, gzip: boolean, maxBytes: number, progress?: { bytes: number }): Readable {
  const file = createReadStream(path, { highWaterMark: 256 * 1024 });
  if (progress) file.on('data', (c) => { progress.bytes += c.length; });
  if (!gzip) return file;
  let seen = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(new TooLargeError(maxBytes));
      else done(null, chunk);
    },
  });
  const gunzip = createGunzip({ chunkSize: 128 * 1024 });
  file.on('error', (e) => gunzip.destroy(e));
  gunzip.on('error', (e) => limit.destroy(e));
  return file.pipe(gunzip).pipe(limit);
}

/**
 * The decoded text of the file (byte-order mark dropped), in string chunks. UTF-8 is decoded
 * strictly: a byte sequence that is not UTF-8 fails the stream with EncodingError, and the
 * caller reads the file again as Windows-1252 (what Excel writes for "CSV" in Latin languages).
 */
export function openText(path: string, format: FileFormat, maxBytes: number, progress?: { bytes: number }): Readable {
  const decoder = new TextDecoder(format.encoding, { fatal: format.encoding === 'utf-8' });
  const bytes = openBytes(path, format.gzip, maxBytes, progress);
  const text = new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _enc, done) {
      let s: string;
      try {
        s = decoder.decode(chunk, { stream: true });
      } catch {
        return done(new EncodingError());
      }
      done(null, s.length > 0 ? s : undefined);
    },
    flush(done) {
      let s: string;
      try {
        s = decoder.decode();
      } catch {
        return done(new EncodingError());
      }
      done(null, s.length > 0 ? s : undefined);
    },
  });
  bytes.on('error', (e) => text.destroy(e));
  return bytes.pipe(text);
}

export interface RecordChunk {
  rows: string[][];
  /** Rows of this chunk papaparse found malformed (an unterminated quote), by index. */
  broken: Map<number, string>;
}

/**
 * The file's records in papaparse chunks. The parser is paused while the consumer works on a
 * chunk, which pauses the file stream: memory holds one chunk, whatever the file's size.
 */
export async function* readRecords(path: string, format: FileFormat, maxBytes: number, progress?: { bytes: number }): AsyncGenerator<RecordChunk> {
  const input = openText(path, format, maxBytes, progress);
  const queue: RecordChunk[] = [];
  let done = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  let parser: Papa.Parser | undefined;
  const poke = () => { const w = wake; wake = undefined; w?.(); };
  input.on('error', (e) => { failure = e; poke(); });
  Papa.parse(input as unknown as File, {
    delimiter: format.delimiter,
    skipEmptyLines: false,
    chunk(results: Papa.ParseResult<string[]>, p: Papa.Parser) {
      parser = p;
      const broken = new Map<number, string>();
      for (const e of results.errors) if (typeof e.row === 'number') broken.set(e.row, e.message);
      queue.push({ rows: results.data, broken });
      p.pause();
      poke();
    },
    complete() { done = true; poke(); },
    error(e: Error) { failure = e; poke(); },
  } as Papa.ParseConfig<string[]> as never);
  try {
    for (;;) {
      const next = queue.shift();
      if (next) {
        yield next;
        if (queue.length === 0 && !done && failure === undefined) parser?.resume();
        continue;
      }
      if (failure !== undefined) throw failure;
      if (done) return;
      await new Promise<void>((resolve) => { wake = resolve; });
    }
  } finally {
    if (!done) {
      parser?.abort();
      input.destroy();
    }
  }
}

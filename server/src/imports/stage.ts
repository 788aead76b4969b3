/**
 * The staging file: the valid rows of a commit, cleaned and resolved, one line each, written
 * during validation and read back while writing. A line is the row's particulars (number,
 * import key, defaulted and array paths) as JSON, a tab, and its value as JSON (readyToStage
 * wrote it): an insert writes that text as it is, and only an update reads the value. It is
 * on disk (next to the upload) so memory never holds the rows, and it is synced before the
 * job moves on to writing, so a job resumed after a crash reads exactly the rows it validated.
 */
import { open, rm, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { noteValue, type Staged } from './plan';

export class StageWriter {
  /** Complete lines written so far, and the file's length. */
  lines = 0;
  bytes = 0;

  private constructor(private readonly fh: FileHandle) {}

  static async create(path: string): Promise<StageWriter> {
    return new StageWriter(await open(path, 'w'));
  }

  async append(rows: readonly Staged[]): Promise<void> {
    if (rows.length === 0) return;
    let text = '';
    // JSON escapes control characters, so the first tab of a line is the separator.
    for (const { v, text: value, ...head } of rows) text += `${JSON.stringify(head)}\t${value ?? JSON.stringify(v)}\n`;
    const buf = Buffer.from(text);
    await this.fh.write(buf);
    this.lines += rows.length;
    this.bytes += buf.length;
  }

  /** Flushes to the disk: the job only moves to writing once this returned. */
  async close(): Promise<void> {
    await this.fh.sync();
    await this.fh.close();
  }

  async discard(path: string): Promise<void> {
    await this.fh.close().catch(() => undefined);
    await rm(path, { force: true });
  }
}

/** A row of the staging file, its value read only when asked for (an update). */
class StagedLine implements Staged {
  r: number;
  d?: string[];
  id?: string;
  k?: [number, string | number | boolean];
  a?: string[];
  private value?: Record<string, unknown>;

  constructor(head: Omit<Staged, 'v' | 'text'>, readonly text: string) {
    this.r = head.r;
    this.d = head.d;
    this.id = head.id;
    this.k = head.k;
    this.a = head.a;
  }

  get v(): Record<string, unknown> {
    return (this.value ??= JSON.parse(this.text) as Record<string, unknown>);
  }
}

function stagedRow(line: string): Staged {
  const tab = line.indexOf('\t');
  if (tab < 0) {
    // A file staged before lines had two parts (a job resumed after an upgrade): noted as readyToStage would.
    const s = JSON.parse(line) as Staged;
    noteValue(s);
    return s;
  }
  return new StagedLine(JSON.parse(line.slice(0, tab)) as Omit<Staged, 'v' | 'text'>, line.slice(tab + 1));
}

/** The staged rows from line `skip` on, in chunks of `size`, with the line number of each chunk's first row. */
export async function* readStage(path: string, skip: number, size: number): AsyncGenerator<{ first: number; rows: Staged[] }> {
  const tail = await StageTail.open(path, skip);
  try {
    const end = await tail.length();
    for (;;) {
      const first = tail.position;
      const rows = await tail.next(size, end);
      if (rows.length === 0) return;
      yield { first, rows };
    }
  } finally {
    await tail.close();
  }
}

/**
 * Reads the staging file a chunk at a time from a given line, up to a length: the file's, or,
 * while it is still being written (a commit that writes as it validates), one the writer
 * reported, so only whole lines. Lines before the first are counted, not parsed.
 */
export class StageTail {
  private offset = 0;
  private line: number;
  private toSkip: number;
  private rest = '';
  private pending: Staged[] = [];
  // A read may end inside a multi-byte character: the decoder keeps its first bytes for the next.
  private readonly decoder = new StringDecoder('utf8');

  private constructor(private readonly fh: FileHandle, from: number) {
    this.line = from;
    this.toSkip = from;
  }

  static async open(path: string, from = 0): Promise<StageTail> {
    return new StageTail(await open(path, 'r'), from);
  }

  /** The line next() hands out first. */
  get position(): number {
    return this.line;
  }

  /** The file's length now. */
  async length(): Promise<number> {
    return (await this.fh.stat()).size;
  }

  /**
   * Up to `size` rows from the next line on, reading no further than `end` bytes (a length the
   * writer reported, so only whole lines); fewer when the file holds no more yet.
   */
  async next(size: number, end: number): Promise<Staged[]> {
    while (this.pending.length < size && this.offset < end) {
      const want = Math.min(end - this.offset, 1 << 20);
      const buf = Buffer.allocUnsafe(want);
      const { bytesRead } = await this.fh.read(buf, 0, want, this.offset);
      if (bytesRead === 0) break;
      this.offset += bytesRead;
      const text = this.rest + this.decoder.write(buf.subarray(0, bytesRead));
      const cut = text.lastIndexOf('\n');
      this.rest = text.slice(cut + 1);
      for (const l of text.slice(0, cut + 1).split('\n')) {
        if (l === '') continue;
        if (this.toSkip > 0) this.toSkip--;
        else this.pending.push(stagedRow(l));
      }
    }
    const out = this.pending.splice(0, size);
    this.line += out.length;
    return out;
  }

  async close(): Promise<void> {
    await this.fh.close().catch(() => undefined);
  }
}

/**
 * Writes staged rows while validation is still appending to the staging file: a chunk each
 * time a full one is there, in order, from the first line. It stops (after the chunk in hand)
 * when told to, when a write fails (error), or when halted because all or nothing has already
 * lost; the rest of the file is then written by the runner's apply(), from the checkpoint.
 */
export class StageFollower {
  error: unknown;
  private end = { lines: 0, bytes: 0 };
  private halted = false;
  private wake: (() => void) | null = null;
  private readonly done: Promise<void>;

  constructor(path: string, private readonly write: (rows: Staged[], first: number) => Promise<unknown>, private readonly chunk: number) {
    this.done = this.run(path).catch((e: unknown) => { this.error = e; });
  }

  advance(lines: number, bytes: number, halt: boolean): void {
    this.end = { lines, bytes };
    if (halt) this.halted = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.halted = true;
    this.wake?.();
    await this.done;
  }

  private async run(path: string): Promise<void> {
    let tail: StageTail | undefined; // the validation thread creates the file: opened once it has rows
    try {
      while (!this.halted) {
        if (this.end.lines - (tail?.position ?? 0) < this.chunk) {
          await new Promise<void>((r) => { this.wake = r; });
          this.wake = null;
          continue;
        }
        tail ??= await StageTail.open(path);
        const first = tail.position;
        await this.write(await tail.next(this.chunk, this.end.bytes), first);
      }
    } finally {
      await tail?.close();
    }
  }
}


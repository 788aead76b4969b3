/**
 * The staging file: the valid rows of a commit, cleaned and resolved, one JSON line each,
 * written during validation and read back while writing. It is on disk (next to the upload)
 * so memory never holds the rows, and it is synced before the job moves on to writing, so a
 * job resumed after a crash reads exactly the rows it validated.
 */
import { createReadStream } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Staged } from './plan';

export class StageWriter {
  private constructor(private readonly fh: FileHandle) {}

  static async create(path: string): Promise<StageWriter> {
    return new StageWriter(await open(path, 'w'));
  }

  async append(rows: readonly Staged[]): Promise<void> {
    if (rows.length === 0) return;
    let text = '';
    for (const r of rows) text += `${JSON.stringify(r)}\n`;
    await this.fh.write(text);
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

/** The staged rows from line `skip` on, in chunks of `size`, with the line number of each chunk's first row. */
export async function* readStage(path: string, skip: number, size: number): AsyncGenerator<{ first: number; rows: Staged[] }> {
  const lines = createInterface({ input: createReadStream(path, { highWaterMark: 256 * 1024 }), crlfDelay: Infinity });
  let n = 0;
  let rows: Staged[] = [];
  let first = skip;
  try {
    for await (const line of lines) {
      if (line === '') continue;
      if (n++ < skip) continue;
      rows.push(JSON.parse(line) as Staged);
      if (rows.length >= size) {
        yield { first, rows };
        first += rows.length;
        rows = [];
      }
    }
    if (rows.length > 0) yield { first, rows };
  } finally {
    lines.close();
  }
}

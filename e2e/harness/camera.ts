import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, writeBarcode } from 'zxing-wasm/writer';
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser';

const W = 640;
const H = 480;

/**
 * A camera for the browser: a Y4M video (one frame, looped by Chromium) of `text` encoded as a
 * GS1-style DataMatrix by zxing's writer, written to `file`, black modules on white in the middle
 * of a 640×480 frame, as a phone held over an IBC's label would see it.
 */
export async function codeVideo(text: string, file: string): Promise<void> {
  const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/writer/zxing_writer.wasm'));
  prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) } as never, fireImmediately: true });
  const { symbol, error } = await writeBarcode(text, { format: 'DataMatrix' } as never);
  if (error || !symbol) throw new Error(`no DataMatrix for ${text}: ${error}`);
  const module = 12;
  const side = symbol.width * module;
  const left = Math.floor((W - side) / 2);
  const top = Math.floor((H - symbol.height * module) / 2);
  const luma = Buffer.alloc(W * H, 255);
  for (let y = 0; y < symbol.height * module; y++) {
    for (let x = 0; x < side; x++) luma[(top + y) * W + left + x] = symbol.data[Math.floor(y / module) * symbol.width + Math.floor(x / module)];
  }
  const chroma = Buffer.alloc((W / 2) * (H / 2), 128);
  writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\nFRAME\n`), luma, chroma, chroma]));
}

/** Chromium whose camera shows `video` (a Y4M file), granted without asking. */
export function chromiumWithCamera(video: string): Promise<Browser> {
  return launchChromium(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`]);
}

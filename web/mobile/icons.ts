/**
 * Writes the web manifest's icons (public/icon-192.png, icon-512.png, icon-maskable-512.png):
 * the product's green with a white IBC (a cage with a tank and a valve). Run once with
 * `npx tsx web/mobile/icons.ts`; the PNGs are committed, so the build needs nothing.
 * The maskable one keeps its drawing inside the central 80 % safe zone.
 */
import { writeFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';

const GREEN = [0x10, 0xb9, 0x81];
const WHITE = [0xff, 0xff, 0xff];

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size: number, scale: number, rounded: boolean): Buffer {
  const rows: Buffer[] = [];
  const c = size / 2;
  const half = (size * scale) / 2; // the drawing's half-width
  const radius = size * 0.18;
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) {
      // Rounded corners for the plain icon, full bleed for the maskable one.
      const dx = Math.max(0, Math.abs(x + 0.5 - c) - (c - radius));
      const dy = Math.max(0, Math.abs(y + 0.5 - c) - (c - radius));
      const inside = !rounded || dx * dx + dy * dy <= radius * radius;
      const u = (x + 0.5 - c) / half; // -1..1 across the drawing
      const v = (y + 0.5 - c) / half;
      const cage = Math.abs(u) <= 0.8 && Math.abs(v) <= 0.7 && (Math.abs(u) >= 0.68 || Math.abs(v) >= 0.58 || Math.abs(u) < 0.04 || Math.abs(v) < 0.04);
      const tank = Math.abs(u) <= 0.5 && Math.abs(v + 0.05) <= 0.4 && !(Math.abs(u) < 0.04 || Math.abs(v) < 0.04);
      const valve = Math.abs(u) <= 0.12 && v > 0.7 && v <= 0.9;
      const colour = cage || tank || valve ? WHITE : GREEN;
      row[1 + x * 4] = colour[0];
      row[2 + x * 4] = colour[1];
      row[3 + x * 4] = colour[2];
      row[4 + x * 4] = inside ? 255 : 0;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })), chunk('IEND', Buffer.alloc(0)),
  ]);
}

const out = new URL('./public/', import.meta.url);
writeFileSync(new URL('icon-192.png', out), png(192, 0.8, true));
writeFileSync(new URL('icon-512.png', out), png(512, 0.8, true));
writeFileSync(new URL('icon-maskable-512.png', out), png(512, 0.6, false));

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { accepts, sniffType } from './sniff';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const CSV = Buffer.from('name;city\nAgro Ñandú;Córdoba\n');

describe('file type sniffing', () => {
  it('reads the type of real files from their bytes, whatever their name', async () => {
    expect(await sniffType(fixture('photo.png'), 'x.pdf')).toEqual({ mime: 'image/png', ext: 'png' });
    expect(await sniffType(fixture('photo.jpg'), 'x')).toEqual({ mime: 'image/jpeg', ext: 'jpg' });
    expect(await sniffType(fixture('certificate.pdf'), 'x.png')).toEqual({ mime: 'application/pdf', ext: 'pdf' });
    expect(await sniffType(Buffer.from([0, 1, 2, 3, 0xff]), 'x.csv')).toEqual({ mime: 'application/octet-stream', ext: '' });
  });

  it('takes UTF-8 text for text, typed by a text extension only', async () => {
    expect(await sniffType(CSV, 'rows.csv')).toEqual({ mime: 'text/csv', ext: 'csv' });
    expect(await sniffType(CSV, 'rows.png')).toEqual({ mime: 'text/plain', ext: 'txt' });
    expect(await sniffType(Buffer.from('a\u0000b'), 'rows.csv')).toEqual({ mime: 'application/octet-stream', ext: '' });
  });

  it('matches accept lists by type, type family and extension, the content agreeing', async () => {
    const png = await sniffType(fixture('photo.png'), 'p.png');
    const csv = await sniffType(CSV, 'rows.csv');
    const renamed = await sniffType(CSV, 'photo.png');
    expect(accepts(['image/png'], png, 'p.png')).toBe(true);
    expect(accepts(['image/*'], png, 'p')).toBe(true);
    expect(accepts(['.png'], png, 'p.PNG')).toBe(true);
    expect(accepts(['.png'], png, 'p.jpg')).toBe(false);
    expect(accepts(['.png', 'image/jpeg'], renamed, 'photo.png')).toBe(false);
    expect(accepts(['text/csv'], csv, 'rows.csv')).toBe(true);
    expect(accepts(['.csv'], csv, 'rows.csv')).toBe(true);
    expect(accepts(['text/*'], renamed, 'photo.png')).toBe(true);
    expect(accepts(['text/csv'], renamed, 'photo.png')).toBe(false);
    expect(accepts(undefined, renamed, 'photo.png')).toBe(true);
  });
});

import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { Response } from 'supertest';
import { newCatalog } from './support/entity';
import { pageCount, pdfTexts } from './support/pdf';
import { expectError } from './support/expect';
import { createUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

const FRONT_URL = 'https://menu.example.test';

/** Reads a binary body whatever its content type. */
function binary(res: Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

function decode(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

/**
 * The first QR code drawn on a PDF's pages, decoded: the sheet draws each code
 * as filled rectangles (a run of `x y w h re`), one per run of dark modules in a
 * row, which are laid back onto a pixel grid with a quiet zone for jsQR.
 */
function firstDrawnCode(pdf: Buffer): string | undefined {
  const raw = pdf.toString('latin1');
  const group = /((?:[-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ re\s+){20,})/.exec(raw);
  if (!group) return undefined;
  const rects = [...group[1].matchAll(/([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re/g)].map((m) =>
    m.slice(1, 5).map(Number),
  );
  const module = Math.min(...rects.map(([, , , h]) => h));
  const left = Math.min(...rects.map(([x]) => x));
  const top = Math.min(...rects.map(([, y]) => y));
  const size = Math.round((Math.max(...rects.map(([, y]) => y)) - top) / module) + 1;
  const scale = 4;
  const side = (size + 8) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [x, y, w] of rects) {
    const row = Math.round((y - top) / module);
    const from = Math.round((x - left) / module);
    const to = from + Math.round(w / module);
    for (let col = from; col < to; col++) {
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const at = ((row + 4) * scale + dy) * side + (col + 4) * scale + dx;
          pixels.fill(0, at * 4, at * 4 + 3);
        }
      }
    }
  }
  return jsQR(pixels, side, side)?.data;
}

// R56: table qr codes.
describe('table QR codes and the printable table sheet', () => {
  let t: TestApp;
  let business: string;
  let menu: string;
  const path = (file: string) =>
    `${t.core}/storefront/${encodeURIComponent(business)}/menu/${encodeURIComponent(menu)}/${file}`;

  beforeAll(async () => {
    t = await startTestApp({ FRONT_URL });
    const owner = await createUser(t);
    business = `bistro-${Date.now()}`;
    menu = 'dinner';
    await newCatalog(t, owner, {
      business: { meta_key: business, title_name: 'Bistro Verde' },
      menu: { meta_key: menu, title_name: 'Dinner' },
    });
  });
  afterAll(() => t?.close());

  it("encodes a table's storefront address, percent-encoded, in the PNG", async () => {
    const res = await t.http.get(path('qr.png')).query({ table: 'Patio 1' }).buffer(true);
    expect(res.status).toBe(200);
    expect(decode(res.body as Buffer)).toBe(
      `${FRONT_URL}/app/${business}/menu/${menu}?table=Patio%201`,
    );
    const plain = await t.http.get(path('qr.png')).buffer(true);
    expect(decode(plain.body as Buffer)).toBe(`${FRONT_URL}/app/${business}/menu/${menu}`);
    expect(plain.headers.etag).not.toBe(res.headers.etag);
  });

  it('answers a table SVG, and refuses a malformed table with 400', async () => {
    const res = await t.http.get(path('qr.svg')).query({ table: 'A-1' }).buffer(true);
    expect(res.status).toBe(200);
    expectError(await t.http.get(path('qr.png')).query({ table: 'T#1' }), 400, 'VALIDATION_FAILED');
    expectError(
      await t.http.get(path('qr.svg')).query({ table: 'x'.repeat(33) }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('prints one card per table, four to an A4 page, with titles, captions and codes', async () => {
    const res = await t.http
      .get(path('qr-sheet.pdf'))
      .query({ tables: '1-20,Patio 1,Patio 2', label: 'Table' })
      .buffer(true)
      .parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = res.body as Buffer;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pageCount(pdf)).toBe(6); // 22 cards
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.28 841\.89\]/);
    const texts = pdfTexts(pdf).map((shown) => shown.text);
    expect(texts.filter((text) => text === 'Bistro Verde')).toHaveLength(22);
    expect(texts.filter((text) => text === 'Dinner')).toHaveLength(22);
    for (const caption of ['Table 1', 'Table 20', 'Table Patio 1', 'Table Patio 2']) {
      expect(texts).toContain(caption);
    }
    expect(texts).not.toContain('Table 21');
    expect(firstDrawnCode(pdf)).toBe(`${FRONT_URL}/app/${business}/menu/${menu}?table=1`);
  });

  it('refuses a malformed list with 400 and more than 200 tables with 422', async () => {
    for (const tables of ['5-2', '', '1,,2', 'Table#1']) {
      expectError(
        await t.http.get(path('qr-sheet.pdf')).query({ tables }),
        400,
        'VALIDATION_FAILED',
      );
    }
    expectError(await t.http.get(path('qr-sheet.pdf')), 400, 'VALIDATION_FAILED');
    const res = await t.http.get(path('qr-sheet.pdf')).query({ tables: '1-201' });
    expectError(res, 422, 'UNPROCESSABLE');
    expect(res.body.error.details[0].field).toBe('tables');
  });

  it('prints the most tables it takes, 200, on 50 pages', async () => {
    const res = await t.http
      .get(path('qr-sheet.pdf'))
      .query({ tables: '1-200' })
      .buffer(true)
      .parse(binary);
    expect(res.status).toBe(200);
    expect(pageCount(res.body as Buffer)).toBe(50);
    const over = await t.http.get(path('qr-sheet.pdf')).query({ tables: '1-199,A,B' });
    expectError(over, 422, 'UNPROCESSABLE');
    expect(over.body.error.details[0].field).toBe('tables');
  });

  it('is 404 for a menu that is not public', async () => {
    const res = await t.http
      .get(`${t.core}/storefront/${business}/menu/nothing-here/qr-sheet.pdf`)
      .query({ tables: '1' });
    expectError(res, 404, 'NOT_FOUND');
  });
});

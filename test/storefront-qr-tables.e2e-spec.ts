import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { Response } from 'supertest';
import { newCatalog } from './support/entity';
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

/** The pages of a PDF (its page objects). */
function pageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;
}

/** The text shown by a PDF's uncompressed content streams, one entry per text object. */
function pdfTexts(pdf: Buffer): string[] {
  const raw = pdf.toString('latin1');
  const texts: string[] = [];
  for (const block of raw.match(/BT[\s\S]*?ET/g) ?? []) {
    const shown = (block.match(/\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g) ?? [])
      .map((op) =>
        (op.match(/<([0-9a-fA-F]*)>/g) ?? [])
          .map((hex) => Buffer.from(hex.slice(1, -1), 'hex').toString('latin1'))
          .join(''),
      )
      .join('');
    if (shown) texts.push(shown);
  }
  return texts;
}

/** The images of a PDF, as PNG-decodable RGB: pdfkit stores a PNG's pixels deflated. */
function firstImage(pdf: Buffer): { width: number; height: number } | undefined {
  const raw = pdf.toString('latin1');
  const match = /\/Subtype \/Image[\s\S]*?\/Width (\d+)[\s\S]*?\/Height (\d+)/.exec(raw);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
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
    const texts = pdfTexts(pdf);
    expect(texts.filter((text) => text === 'Bistro Verde')).toHaveLength(22);
    expect(texts.filter((text) => text === 'Dinner')).toHaveLength(22);
    for (const caption of ['Table 1', 'Table 20', 'Table Patio 1', 'Table Patio 2']) {
      expect(texts).toContain(caption);
    }
    expect(texts).not.toContain('Table 21');
    expect(firstImage(pdf)).toEqual({ width: 600, height: 600 });
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

  it('is 404 for a menu that is not public', async () => {
    const res = await t.http
      .get(`${t.core}/storefront/${business}/menu/nothing-here/qr-sheet.pdf`)
      .query({ tables: '1' });
    expectError(res, 404, 'NOT_FOUND');
  });
});

import QRCode from 'qrcode';
import { Response } from 'supertest';
import { entityPath, EntityResponse, newBusiness, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { randomIp } from './support/order';
import { embeddedFonts, pdfTexts } from './support/pdf';
import { startTestApp, TestApp } from './support/test-app';

const FRONT_URL = 'https://menu.example.test';

function binary(res: Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

/** Whether the QR library the service uses can hold `text` at its level (M). */
function fits(text: string): boolean {
  try {
    QRCode.create(text, { errorCorrectionLevel: 'M' });
    return true;
  } catch {
    return false;
  }
}

const storefrontUrl = (business: string, menu: string) =>
  `${FRONT_URL}/app/${encodeURIComponent(business)}/menu/${encodeURIComponent(menu)}`;

// R56: table qr codes.
describe('table sheets print titles in any script the embedded fonts cover', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ FRONT_URL });
    owner = await createUser(t);
  });
  afterAll(() => t?.close());

  async function sheetOf(business: string, menu: string): Promise<Buffer> {
    const catalog = await newCatalog(t, owner, {
      business: { title_name: business },
      menu: { title_name: menu },
    });
    const res = await t.http
      .get(
        `${t.core}/storefront/${catalog.business.meta_key}/menu/${catalog.menu.meta_key}/qr-sheet.pdf`,
      )
      .query({ tables: '1-3' })
      .set({ 'x-forwarded-for': randomIp() })
      .buffer(true)
      .parse(binary);
    expect(res.status).toBe(200);
    return res.body as Buffer;
  }

  it('Yoruba (dotted letters with tone marks) and French (accents) print as written, in Noto Sans', async () => {
    const yoruba = 'Ọjà Ẹ̀kọ́ Ṣàngó';
    const french = 'Crêperie à l’Été';
    const pdf = await sheetOf(yoruba, french);
    const texts = pdfTexts(pdf);
    const nfc = (text: string) => text.normalize('NFC');
    const titles = texts.filter((shown) => nfc(shown.text) === nfc(yoruba));
    expect(titles).toHaveLength(3);
    for (const title of titles) expect(title.font).toBe('NotoSans-Bold');
    const menus = texts.filter((shown) => shown.text === french);
    expect(menus).toHaveLength(3);
    for (const line of menus) expect(line.font).toBe('NotoSans-Regular');
    // No character fell back to a missing glyph.
    expect(texts.every((shown) => !shown.text.includes('\ufffd'))).toBe(true);
    expect(embeddedFonts(pdf)).toEqual(['NotoSans-Bold', 'NotoSans-Regular']);
  });

  it('Arabic prints shaped (joined forms, the lam-alef ligature) and right to left, in Noto Naskh Arabic', async () => {
    const business = 'مطعم الأمل';
    const menu = 'قائمة العشاء';
    const pdf = await sheetOf(business, menu);
    const texts = pdfTexts(pdf);
    // Drawn left to right, so read back from the right: the glyphs reversed are the title.
    const read = (glyphs: string[]) => [...glyphs].reverse().join('');
    const titles = texts.filter((shown) => read(shown.glyphs) === business);
    expect(titles).toHaveLength(3);
    const [title] = titles;
    expect(title.font).toBe('NotoNaskhArabic-Bold');
    // لأ is one glyph: fewer glyphs than characters.
    expect(title.glyphs).toContain('لأ');
    expect(title.glyphs.length).toBeLessThan([...business].length);
    // مطعم starts and ends with م: joined to what follows, then to what precedes, two forms.
    const meem = title.ids.filter((_, index) => title.glyphs[index] === 'م');
    expect(new Set(meem).size).toBeGreaterThan(1);
    expect(texts.filter((shown) => read(shown.glyphs) === menu)).toHaveLength(3);
    expect(embeddedFonts(pdf)).toEqual(
      expect.arrayContaining(['NotoNaskhArabic', 'NotoNaskhArabic-Bold', 'NotoSans-Bold']),
    );
  });

  it('a title mixing scripts keeps each run in its own font', async () => {
    const pdf = await sheetOf('Mama Put مطعم', 'Menu 1');
    const [latin, arabic] = pdfTexts(pdf);
    expect(latin).toMatchObject({ font: 'NotoSans-Bold', text: 'Mama Put ' });
    expect(arabic.font).toBe('NotoNaskhArabic-Bold');
    expect([...arabic.glyphs].reverse().join('')).toBe('مطعم');
  });
});

// R73: costly public answers are bounded.
describe('an address too long for a QR code is 422, and a meta_key is at most 120 characters', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ FRONT_URL });
    owner = await createUser(t);
  });
  afterAll(() => t?.close());

  /** A key stored before the 120-character rule, written past the API as older data is. */
  async function legacyKey(record: EntityResponse, metaKey: string): Promise<void> {
    await t.dataSource.query('UPDATE entities SET meta_key = $1 WHERE uuid = $2', [
      metaKey,
      record.uuid,
    ]);
  }

  function artefact(business: string, menu: string, file: string, query: Record<string, string>) {
    return t.http
      .get(
        `${t.core}/storefront/${encodeURIComponent(business)}/menu/${encodeURIComponent(menu)}/${file}`,
      )
      .query(query)
      .set({ 'x-forwarded-for': randomIp() });
  }

  it('names meta_key when the storefront address alone does not fit (255 CJK characters each)', async () => {
    const catalog = await newCatalog(t, owner);
    const [business, menu] = ['餐'.repeat(255), '菜'.repeat(255)];
    await legacyKey(catalog.business, business);
    await legacyKey(catalog.menu, menu);
    expect(fits(storefrontUrl(business, menu))).toBe(false);
    for (const [file, query] of [
      ['qr.svg', {}],
      ['qr.png', { size: '2048' }],
      ['qr.svg', { table: 'Patio 1' }],
      ['qr-sheet.pdf', { tables: '1-3' }],
    ] as const) {
      const res = await artefact(business, menu, file, query);
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['meta_key']);
    }
  });

  it('names table when only the table makes it too long', async () => {
    const catalog = await newCatalog(t, owner);
    const table = 'abcdefghijklmnopqrstuvwxyz abcde';
    // The longest business key beside a menu key of 255 whose address still fits: a table of
    // 32 letters then tips it over.
    const menu = '菜'.repeat(255);
    const address = (n: number) => storefrontUrl('餐'.repeat(n), menu);
    let [low, high] = [1, 255];
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (fits(address(middle))) low = middle;
      else high = middle - 1;
    }
    const business = '餐'.repeat(low);
    expect(fits(address(low))).toBe(true);
    expect(fits(`${address(low)}?table=${encodeURIComponent(table)}`)).toBe(false);
    await legacyKey(catalog.business, business);
    await legacyKey(catalog.menu, menu);
    expect((await artefact(business, menu, 'qr.svg', {})).status).toBe(200);
    for (const [file, query] of [
      ['qr.svg', { table }],
      ['qr.png', { table }],
      ['qr-sheet.pdf', { tables: `1,${table}` }],
    ] as const) {
      const res = await artefact(business, menu, file, query);
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['table']);
    }
  });

  it('refuses a business, menu or item meta_key over 120 characters (code points) with 400, storing nothing', async () => {
    const catalog = await newCatalog(t, owner);
    const tooLong = '🍕'.repeat(121);
    const longest = '🍕'.repeat(120);
    const count = async () =>
      (await t.dataSource.query('SELECT count(*)::int AS n FROM entities'))[0].n as number;
    const before = await count();
    for (const [suffix, parent] of [
      ['business', undefined],
      ['business_menu', catalog.business.uuid],
      ['business_menu_item', catalog.menu.uuid],
    ] as const) {
      const res = await t.http
        .post(entityPath(t, suffix))
        .set(owner.headers)
        .send({
          meta_key: tooLong,
          title_name: 'Long',
          ...(parent ? { parent_entity_uuid: parent } : {}),
        });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain('meta_key');
    }
    expect(await count()).toBe(before);
    const edited = await t.http
      .put(entityPath(t, 'business_menu', catalog.menu.uuid))
      .set(owner.headers)
      .send({ meta_key: tooLong });
    expectError(edited, 400, 'VALIDATION_FAILED');
    const created = await newBusiness(t, owner, { meta_key: longest });
    expect([...created.meta_key!]).toHaveLength(120);
  });

  it('keeps a longer key stored before, until it is changed', async () => {
    const catalog = await newCatalog(t, owner);
    const legacy = '餐'.repeat(200);
    await legacyKey(catalog.menu, legacy);
    const path = entityPath(t, 'business_menu', catalog.menu.uuid);
    expect(
      expectOk(await t.http.put(path).set(owner.headers).send({ title_name: 'Renamed' })).meta_key,
    ).toBe(legacy);
    expect(
      expectOk(await t.http.put(path).set(owner.headers).send({ meta_key: legacy })).meta_key,
    ).toBe(legacy);
  });
});

import { Browser, chromium, Page } from 'playwright-core';
import { registerAndLogin } from './support/account';
import { newCatalog } from './support/entity';
import { expectOk } from './support/expect';
import { createUser } from './support/factory';
import { KITCHEN } from './support/kitchen';
import { orderBody, placeOrder, updateOrderRequest } from './support/order';
import { addMember } from './support/team';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, describeInBrowser } from './support/browser';
import { startTestApp, TestApp } from './support/test-app';
import { DEVELOPMENT_API_KEY } from '../src/config/config';

/**
 * The kitchen display at /kitchen in a real headless Chromium: a staff
 * member signs in, sees the tickets of an order accepted through the API
 * arrive by the stream, moves a line, bumps one ticket with the button and
 * the other with a long press, and the order is ready through the API.
 *
 * Needs a browser: see test/support/browser.ts.
 */
describeInBrowser('the kitchen display in a real browser', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp();
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_FLAGS,
    });
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function orderStatus(headers: Record<string, string>, uuid: string) {
    return expectOk(await t.http.get(`${t.core}/orders/${uuid}`).set(headers)).status;
  }

  it('a staff member works an order from acceptance to ready', async () => {
    const owner = await createUser(t);
    const staff = await registerAndLogin(t);
    const catalog = await newCatalog(t, owner, {
      business: { title_name: 'Mama Put Kitchen', extra_data: { kitchen: KITCHEN } },
      items: [
        { title_name: 'Suya burger', extra_data: { category: 'Burgers' } },
        { title_name: 'Chapman', extra_data: { category: 'Drinks' } },
      ],
    });
    await addMember(t, owner, catalog.business.uuid, staff, 'staff');

    const context = await browser.newContext({
      viewport: { width: 1024, height: 768 },
      locale: 'en-GB',
    });
    const page: Page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    try {
      await page.goto(`${t.baseUrl}/kitchen`);
      await page.getByLabel('Email').fill(staff.email);
      await page.getByLabel('Password').fill(staff.password);
      await page.getByLabel('API key').fill(t.config.apiKeys[0]);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const business = page.getByLabel('Business');
      await expectOptionText(page, '#business', 'Mama Put Kitchen');
      expect(await business.inputValue()).toBe(catalog.business.uuid);
      await expectOptionText(page, '#station', 'Grill');
      await expectOptionText(page, '#station', 'Bar');
      // Waited for through Playwright's selectors: a predicate polled in the
      // page would be compiled there, which the page's CSP (no eval) refuses.
      await page.locator('#status:text-is("Live")').waitFor();
      expect(
        await page.evaluate(
          `[sessionStorage.getItem('kitchen.token') !== null, localStorage.length]`,
        ),
      ).toEqual([true, 0]);

      // An order accepted through the API appears without reloading.
      const order = await placeOrder(t, orderBody(catalog));
      expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' }));
      const cards = page.locator('[data-ticket-uuid]');
      await cards.nth(1).waitFor();
      expect(await cards.count()).toBe(2);

      // A tap moves a line.
      const firstLine = cards.nth(0).locator('[data-line-uuid]').first();
      await firstLine.click();
      await page.waitForSelector('[data-ticket-uuid] [data-status="preparing"]');
      expect(await orderStatus(owner.headers, order.uuid)).toBe('preparing');

      // The bump control, then a long press on the other card.
      const firstUuid = await cards.nth(0).getAttribute('data-ticket-uuid');
      await cards.nth(0).locator('[data-action="bump"]').click();
      await page.waitForSelector(`[data-ticket-uuid="${firstUuid}"]`, { state: 'detached' });
      expect(await cards.count()).toBe(1);
      const last = cards.nth(0).locator('h3');
      const box = (await last.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.waitForTimeout(900);
      await page.mouse.up();
      await page.locator('[data-ticket-uuid]').first().waitFor({ state: 'detached' });
      expect(await orderStatus(owner.headers, order.uuid)).toBe('ready');

      // On a phone the cards fit the width.
      await page.setViewportSize({ width: 390, height: 844 });
      const order2 = await placeOrder(t, orderBody(catalog));
      expectOk(await updateOrderRequest(t, owner.headers, order2.uuid, { status: 'accepted' }));
      await cards.nth(1).waitFor();
      expect(await page.evaluate(`document.documentElement.scrollWidth <= window.innerWidth`)).toBe(
        true,
      );
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('speaks French to a French browser', async () => {
    const context = await browser.newContext({ locale: 'fr-FR' });
    const page = await context.newPage();
    try {
      await page.goto(`${t.baseUrl}/kitchen`);
      expect(await page.locator('h1').textContent()).toBe('Cuisine');
      expect(await page.getByLabel('Email').isVisible()).toBe(true);
      // API_KEYS is set: no key is filled in.
      expect(await page.getByLabel('API key').inputValue()).toBe('');
    } finally {
      await context.close();
    }
  });
});

async function expectOptionText(page: Page, select: string, text: string): Promise<void> {
  await page.locator(`${select} option`, { hasText: text }).first().waitFor({ state: 'attached' });
}

describe('the kitchen display page', () => {
  it('starts with the development key when no API_KEYS are set, outside production', async () => {
    const t = await startTestApp({ API_KEYS: '' });
    try {
      const res = await t.http.get('/kitchen');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain(`name="dev-api-key" content="${DEVELOPMENT_API_KEY}"`);
      expect(res.text).toContain(`content="/public/api/v1/${t.config.namespace}"`);
      // Nothing from elsewhere: every script and stylesheet is the service's own.
      expect(res.text).not.toMatch(/(src|href)="https?:/);
      const script = await t.http.get('/kitchen/kitchen.js');
      expect(script.status).toBe(200);
      expect(script.headers['content-type']).toMatch(/javascript/);
      expect((await t.http.get('/kitchen/secrets.txt')).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('answers 404 with KITCHEN_DISPLAY_ENABLED=false', async () => {
    const t = await startTestApp({ KITCHEN_DISPLAY_ENABLED: 'false' });
    try {
      expect((await t.http.get('/kitchen')).status).toBe(404);
      expect((await t.http.get('/kitchen/kitchen.js')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

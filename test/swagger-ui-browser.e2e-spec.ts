import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { DEVELOPMENT_API_KEY } from '../src/config/config';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, describeInBrowser } from './support/browser';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Swagger UI at /docs in a real headless Chromium: the page renders, the
 * development key authorises, and "Try it out" → Execute shows the answer.
 *
 * Needs a browser: see test/support/browser.ts.
 */
describeInBrowser('Swagger UI in a real browser', () => {
  let t: TestApp;
  let profile: string;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // No API_KEYS: the development key is in use, as on a fresh checkout.
    t = await startTestApp({ API_KEYS: '' });
    profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
    // A persistent context on a fresh directory is Chromium's --user-data-dir.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_FLAGS,
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  async function openDocs(): Promise<void> {
    await page.goto(`${t.baseUrl}/docs`);
    try {
      await page.locator('.swagger-ui .info .title').waitFor({ timeout: 30000 });
    } catch (error) {
      throw new Error(`Swagger UI did not render; page errors: ${JSON.stringify(pageErrors)}`, {
        cause: error,
      });
    }
    await page.locator('#operations-accounts-registerUser').waitFor();
  }

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await t?.close();
  });

  it('renders the document, names the development key and lists accounts in flow order', async () => {
    await openDocs();
    expect(await page.locator('.swagger-ui .info .title').innerText()).toContain(
      'Menu and Ordering Service',
    );
    expect(await page.locator('.swagger-ui .info .description').innerText()).toContain(
      DEVELOPMENT_API_KEY,
    );
    const accountIds = await page
      .locator('[id^="operations-accounts-"]')
      .evaluateAll((nodes) => nodes.map((node) => node.id.replace('operations-accounts-', '')));
    expect(accountIds[0]).toBe('registerUser');
    expect(accountIds[1]).toBe('loginUser');
    expect(accountIds[accountIds.length - 1]).toBe('changePassword');
    expect(pageErrors).toEqual([]);
  });

  it('authorises with the development key and runs register through "Try it out"', async () => {
    await openDocs();
    await page.locator('.auth-wrapper button.authorize').click();
    const apiKey = page.locator('.modal-ux .auth-container').filter({ hasText: 'api_key' });
    await apiKey.locator('input').fill(DEVELOPMENT_API_KEY);
    await apiKey.locator('button.authorize').click();
    await apiKey.locator('h6', { hasText: 'Authorized' }).waitFor();
    await page.locator('.modal-ux button.btn-done').first().click();

    const register = page.locator('#operations-accounts-registerUser');
    await register.locator('.opblock-summary').first().click();
    await register.locator('button.try-out__btn').click();
    await register.locator('button.execute').click();

    const answer = register.locator('.live-responses-table .response').first();
    await answer.waitFor({ timeout: 30000 });
    expect((await answer.locator('.response-col_status').innerText()).trim()).toBe('201');
    const body = await answer.locator('.response-col_description pre').first().innerText();
    expect(JSON.parse(body)).toMatchObject({
      status: true,
      data: { username: 'kemi-tryout', email_verified_at: null },
    });
    expect(pageErrors).toEqual([]);
  });
});

import { entityPath } from './support/entity';
import { newCatalog } from './support/entity';
import { expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

const SUBACCOUNT = 'ACCT_private_settlement_1';
const PRIVATE_VALUE = 'pos-pin-4417';

// R69: private settings.
describe("a business's private settings stay out of public answers", () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    // A long cache TTL: a second read is answered from the cache and must be as clean.
    t = await startTestApp({ STOREFRONT_CACHE_TTL_MS: '60000' });
    owner = await createUser(t);
    stranger = await createUser(t);
  });
  afterAll(() => t?.close());

  async function privateCatalog() {
    return newCatalog(t, owner, {
      business: {
        extra_data: {
          paystack_subaccount_code: SUBACCOUNT,
          private_pos_pin: PRIVATE_VALUE,
          opening_hours_note: 'kept',
        },
      },
      menu: { extra_data: { private_menu_cost: PRIVATE_VALUE } },
      items: [{ extra_data: { private_supplier: PRIVATE_VALUE } }],
    });
  }

  function expectNoPrivateSettings(answer: unknown) {
    const text = JSON.stringify(answer);
    expect(text).not.toContain(SUBACCOUNT);
    expect(text).not.toContain(PRIVATE_VALUE);
    expect(text).not.toContain('paystack_subaccount_code');
    expect(text).not.toMatch(/"private_/);
  }

  it('the storefront leaves them out, built, cached and as stored', async () => {
    const catalog = await privateCatalog();
    const path = `${t.core}/storefront/${catalog.business.meta_key}/menu/${catalog.menu.meta_key}`;
    const first = expectOk(await t.http.get(path).set(apiHeaders(t)));
    expect(first.business.extra_data.opening_hours_note).toBe('kept');
    expectNoPrivateSettings(first);
    // The owner's own read of the storefront is public too: it is one shared document.
    expectNoPrivateSettings(expectOk(await t.http.get(path).set(owner.headers)));
    const gzipped = await t.http.get(path).set({ ...apiHeaders(t), 'accept-encoding': 'gzip' });
    expectNoPrivateSettings(expectOk(gzipped));

    const stored: Array<{ body: Buffer }> = await t.dataSource.query(
      `SELECT body FROM storefront_documents WHERE business_uuid = $1`,
      [catalog.business.uuid],
    );
    expect(stored.length).toBeGreaterThan(0);
    for (const row of stored) expectNoPrivateSettings(row.body.toString('utf8'));
  });

  it('retrieve-by-meta-key, public lists and public reads leave them out; the owner still sees them', async () => {
    const catalog = await privateCatalog();
    const business = catalog.business;
    expect(business.extra_data.paystack_subaccount_code).toBe(SUBACCOUNT);

    const byMetaKey = await t.http
      .get(`${entityPath(t, 'business', 'retrieve-by-meta-key', business.meta_key!)}`)
      .set(apiHeaders(t));
    expectNoPrivateSettings(expectOk(byMetaKey));

    for (const headers of [apiHeaders(t), stranger.headers]) {
      const list = expectOk<Array<{ uuid: string }>>(
        await t.http
          .get(entityPath(t, 'business'))
          .query({ meta_key: business.meta_key })
          .set(headers),
      );
      expect(list.map((record) => record.uuid)).toEqual([business.uuid]);
      expectNoPrivateSettings(list);
      for (const [suffix, record] of [
        ['business', business],
        ['business_menu', catalog.menu],
        ['business_menu_item', catalog.items[0]],
      ] as const) {
        const read = await t.http.get(entityPath(t, suffix, record.uuid)).set(headers);
        expectNoPrivateSettings(expectOk(read));
      }
    }

    const own = expectOk(
      await t.http.get(entityPath(t, 'business', business.uuid)).set(owner.headers),
    );
    expect(own.extra_data).toMatchObject({
      paystack_subaccount_code: SUBACCOUNT,
      private_pos_pin: PRIVATE_VALUE,
    });
    const ownList = expectOk<Array<{ extra_data: Record<string, unknown> }>>(
      await t.http
        .get(entityPath(t, 'business'))
        .query({ meta_key: business.meta_key, owned_by: owner.uuid })
        .set(owner.headers),
    );
    expect(ownList[0].extra_data.private_pos_pin).toBe(PRIVATE_VALUE);
  });
});

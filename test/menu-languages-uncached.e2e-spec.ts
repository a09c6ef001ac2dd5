import { entityPath, newBusiness, newItem, newMenu } from './support/entity';
import { expectOk } from './support/expect';
import { apiHeaders, createUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

// R118: the storefront's language, with the in-process cache off
// (STOREFRONT_CACHE_TTL_MS=0): every read asks the database, readers asking
// together share one making of a view, and a view is never older than the
// last committed write.
describe('the storefront in a language, with the cache off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ STOREFRONT_CACHE_TTL_MS: '0' });
  });
  afterAll(() => t?.close());

  it('answers readers asking together alike, and shows a write at once', async () => {
    const owner = await createUser(t);
    const business = await newBusiness(t, owner);
    const menu = await newMenu(t, owner, business, {
      extra_data: { languages: { default: 'en', available: ['en', 'fr'] } },
    });
    const item = await newItem(t, owner, menu, {
      title_name: 'Braised chicken',
      extra_data: { translations: { fr: { title_name: 'Poulet braisé' } } },
    });
    const at = `${t.core}/storefront/${business.meta_key}/menu/${menu.meta_key}?lang=fr`;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => t.http.get(at).set(apiHeaders(t))),
    );
    const bodies = answers.map((res) => expectOk(res));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(new Set(answers.map((res) => res.headers.etag)).size).toBe(1);
    expect(bodies[0].items[0].title_name).toBe('Poulet braisé');
    // An answer in one language leaves the other languages' texts out.
    expect(bodies[0].items[0].extra_data.translations).toBeUndefined();

    expectOk(
      await t.http
        .put(entityPath(t, 'business_menu_item', item.uuid))
        .set(owner.headers)
        .send({
          extra_data: { ...item.extra_data, translations: { fr: { title_name: 'Poulet yassa' } } },
        }),
    );
    const after = await t.http.get(at).set(apiHeaders(t));
    expect(expectOk(after).items[0].title_name).toBe('Poulet yassa');
    expect(after.headers.etag).not.toBe(answers[0].headers.etag);
  });
});

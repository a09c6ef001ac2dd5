import { createTestDatabase } from './support/database';
import { readUntil } from './support/read-until';
import { serverOnly } from './support/server-only';
import { newBusiness, newItem, newMenu, entityPath } from './support/entity';
import { expectOk } from './support/expect';
import { apiHeaders, createUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

describe('storefront cache across processes', () => {
  serverOnly('a write through one process shows at once in the storefront of another', async () => {
    const db = await createTestDatabase();
    // A long cache, so only the invalidation can make the second process show the write.
    const env = { STOREFRONT_CACHE_TTL_MS: '60000' };
    let writer: TestApp | undefined;
    let reader: TestApp | undefined;
    try {
      writer = await startTestApp(env, { database: db });
      reader = await startTestApp(env, { database: db });
      const owner = await createUser(writer);
      const business = await newBusiness(writer, owner);
      const menu = await newMenu(writer, owner, business);
      const item = await newItem(writer, owner, menu, { title_name: 'Jollof rice' });
      const storefront = `${reader.core}/storefront/${business.meta_key}/menu/${menu.meta_key}`;
      const readTitles = async () =>
        expectOk<{ items: Array<{ title_name: string }> }>(
          await reader!.http.get(storefront).set(apiHeaders(reader!)),
        ).items.map((entry) => entry.title_name);

      expect(await readTitles()).toEqual(['Jollof rice']);
      expect(await readTitles()).toEqual(['Jollof rice']); // now served from the reader's cache

      const update = await writer.http
        .put(entityPath(writer, 'business_menu_item', item.uuid))
        .set(owner.headers)
        .send({ ...item, title_name: 'Jollof rice, large' });
      expectOk(update);

      const after = await readUntil(readTitles, (titles) => titles[0] === 'Jollof rice, large');
      expect(after).toEqual(['Jollof rice, large']);
    } finally {
      await writer?.close();
      await reader?.close();
      await db.drop();
    }
  });

  serverOnly(
    'a write through one process shows in the very next storefront read of every process',
    async () => {
      const db = await createTestDatabase();
      // No in-process cache: each read is answered from the stored document (or rebuilds it).
      const env = { STOREFRONT_CACHE_TTL_MS: '0' };
      const apps: TestApp[] = [];
      try {
        apps.push(await startTestApp(env, { database: db }));
        apps.push(await startTestApp(env, { database: db }));
        const [writer] = apps;
        const owner = await createUser(writer);
        const business = await newBusiness(writer, owner);
        const menu = await newMenu(writer, owner, business);
        const item = await newItem(writer, owner, menu, { title_name: 'Ofada rice' });
        const readTitles = async (app: TestApp) =>
          expectOk<{ items: Array<{ title_name: string }> }>(
            await app.http
              .get(`${app.core}/storefront/${business.meta_key}/menu/${menu.meta_key}`)
              .set(apiHeaders(app)),
          ).items.map((entry) => entry.title_name);

        for (const app of apps) expect(await readTitles(app)).toEqual(['Ofada rice']);
        for (let round = 1; round <= 3; round++) {
          const writeThrough = apps[round % 2];
          expectOk(
            await writeThrough.http
              .put(entityPath(writeThrough, 'business_menu_item', item.uuid))
              .set(owner.headers)
              .send({ title_name: `Ofada rice ${round}` }),
          );
          for (const app of apps) expect(await readTitles(app)).toEqual([`Ofada rice ${round}`]);
        }
      } finally {
        for (const app of apps) await app.close();
        await db.drop();
      }
    },
  );
});

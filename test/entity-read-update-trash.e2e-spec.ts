import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { ApiError } from '../src/http/api-error';
import { FeaturedUrlChecks, FeaturedUrlCheckInput } from '../src/entity/featured-url-check';
import {
  entityPath,
  entityType,
  EntityResponse,
  newBusiness,
  newItem,
  newMenu,
  refusedWithoutEntityChange,
} from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

// R12: restore.
describe('entities: read one, update, trash, restore, featured URL checks', () => {
  let t: TestApp;
  let a: TestUser;
  let b: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    a = await createUser(t);
    b = await createUser(t);
  });
  afterAll(() => t?.close());

  const refusedWithoutChange = (
    act: () => Promise<Response>,
    status: number,
    code: string,
  ): Promise<Response> => refusedWithoutEntityChange(t, act, status, code);

  describe('read one', () => {
    let live: EntityResponse;
    let disabled: EntityResponse;
    let trashed: EntityResponse;

    beforeAll(async () => {
      live = await newBusiness(t, a);
      disabled = await newBusiness(t, a, { status: 'disabled' });
      trashed = await newBusiness(t, a);
      expectOk(
        await t.http.delete(entityPath(t, 'business', 'trash', trashed.uuid)).set(a.headers),
      );
    });

    it('shows a public record to anyone', async () => {
      const guest = await t.http.get(entityPath(t, 'business', live.uuid)).set(apiHeaders(t));
      expect(expectOk<EntityResponse>(guest).uuid).toBe(live.uuid);
      const other = await t.http.get(entityPath(t, 'business', live.uuid)).set(b.headers);
      expect(expectOk<EntityResponse>(other).uuid).toBe(live.uuid);
    });

    it("hides A's disabled and trashed records from B and guests (404) but not from A", async () => {
      for (const record of [disabled, trashed]) {
        expectError(
          await t.http.get(entityPath(t, 'business', record.uuid)).set(b.headers),
          404,
          'NOT_FOUND',
        );
        expectError(
          await t.http.get(entityPath(t, 'business', record.uuid)).set(apiHeaders(t)),
          404,
          'NOT_FOUND',
        );
      }
      expect(
        expectOk<EntityResponse>(
          await t.http.get(entityPath(t, 'business', disabled.uuid)).set(a.headers),
        ).status,
      ).toBe('disabled');
      const own = expectOk<EntityResponse>(
        await t.http.get(entityPath(t, 'business', trashed.uuid)).set(a.headers),
      );
      expect(own.trashed_at).not.toBeNull();
    });

    it('answers 404 for a malformed uuid or a record of another type', async () => {
      expectError(
        await t.http.get(entityPath(t, 'business', 'not-a-uuid')).set(a.headers),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.http.get(entityPath(t, 'business_menu', live.uuid)).set(a.headers),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('update (PUT)', () => {
    it('replaces the fields sent, keeps the others, and replaces extra_data whole', async () => {
      const business = await newBusiness(t, a, {
        description: 'old description',
        slug: 'old-slug',
        extra_data: { business_address: 'Old Street', custom: 1 },
      });
      const res = await t.http
        .put(entityPath(t, 'business', business.uuid))
        .set(a.headers)
        .send({
          title_name: 'New title',
          description: null,
          request_id: 'ignored-on-update',
          uuid: randomUUID(),
          created_at: '2001-01-01T00:00:00.000Z',
          extra_data: { country_of_registration: 'GH' },
        });
      const updated = expectOk<EntityResponse>(res);
      expect(res.body.message).toBe('Business updated');
      expect(updated).toMatchObject({
        uuid: business.uuid,
        title_name: 'New title',
        description: null,
        slug: 'old-slug',
        meta_key: business.meta_key,
        request_id: business.request_id,
        created_at: business.created_at,
        extra_data: { country_of_registration: 'GH' },
      });
      expect(new Date(updated.updated_at).getTime()).toBeGreaterThanOrEqual(
        new Date(business.updated_at).getTime(),
      );
    });

    it('keeps extra_data when it is left out', async () => {
      const business = await newBusiness(t, a, { extra_data: { business_address: 'Kept' } });
      const updated = expectOk<EntityResponse>(
        await t.http
          .put(entityPath(t, 'business', business.uuid))
          .set(a.headers)
          .send({ status: 'disabled' }),
      );
      expect(updated.status).toBe('disabled');
      expect(updated.extra_data.business_address).toBe('Kept');
    });

    it("refuses B's update of A's record with 403 and changes nothing", async () => {
      const business = await newBusiness(t, a);
      await refusedWithoutChange(
        () =>
          t.http
            .put(entityPath(t, 'business', business.uuid))
            .set(b.headers)
            .send({ title_name: 'Hijacked', owned_by: b.uuid }),
        403,
        'FORBIDDEN',
      );
      await refusedWithoutChange(
        () =>
          t.http
            .put(entityPath(t, 'business', business.uuid))
            .set(a.headers)
            .send({ title_name: 'Given away', owned_by: b.uuid }),
        403,
        'FORBIDDEN',
      );
    });

    it('refuses a missing record (404), a trashed one (422) and bad extra_data (400)', async () => {
      await refusedWithoutChange(
        () =>
          t.http
            .put(entityPath(t, 'business', randomUUID()))
            .set(a.headers)
            .send({}),
        404,
        'NOT_FOUND',
      );
      const business = await newBusiness(t, a);
      const menu = await newMenu(t, a, business);
      const item = await newItem(t, a, menu);
      await refusedWithoutChange(
        () =>
          t.http
            .put(entityPath(t, 'business_menu_item', item.uuid))
            .set(a.headers)
            .send({ extra_data: { unit_price_amount: '1.00' } }),
        400,
        'VALIDATION_FAILED',
      );
      expectOk(
        await t.http.post(entityPath(t, 'business_menu_item', 'trash', item.uuid)).set(a.headers),
      );
      await refusedWithoutChange(
        () =>
          t.http
            .put(entityPath(t, 'business_menu_item', item.uuid))
            .set(a.headers)
            .send({ title_name: 'x' }),
        422,
        'UNPROCESSABLE',
      );
    });

    it("moves an item to another of the owner's menus, never to B's", async () => {
      const business = await newBusiness(t, a);
      const from = await newMenu(t, a, business);
      const to = await newMenu(t, a, business);
      const item = await newItem(t, a, from);
      const moved = expectOk<EntityResponse>(
        await t.http
          .put(entityPath(t, 'business_menu_item', item.uuid))
          .set(a.headers)
          .send({ parent_entity_uuid: to.uuid }),
      );
      expect(moved.parent_entity_uuid).toBe(to.uuid);
      const bMenu = await newMenu(t, b, await newBusiness(t, b));
      await refusedWithoutChange(
        () =>
          t.http
            .put(entityPath(t, 'business_menu_item', item.uuid))
            .set(a.headers)
            .send({ parent_entity_uuid: bMenu.uuid }),
        403,
        'FORBIDDEN',
      );
    });
  });

  describe('trash and restore', () => {
    it('trashes by POST and by DELETE, idempotently; trashed items leave the list; restore brings them back', async () => {
      const business = await newBusiness(t, a);
      const menu = await newMenu(t, a, business);
      const posted = await newItem(t, a, menu);
      const deleted = await newItem(t, a, menu);
      const kept = await newItem(t, a, menu);
      const listed = async (user: TestUser) =>
        expectOk<EntityResponse[]>(
          await t.http
            .get(entityPath(t, 'business_menu_item'))
            .query({ parent_entity_uuid: menu.uuid, per_page: 100 })
            .set(user.headers),
        )
          .map((item) => item.uuid)
          .sort();

      const byPost = await t.http
        .post(entityPath(t, 'business_menu_item', 'trash', posted.uuid))
        .set(a.headers);
      expect(expectOk<EntityResponse>(byPost, 200).trashed_at).not.toBeNull();
      expect(byPost.body.message).toBe('Menu item moved to the trash');
      const byDelete = await t.http
        .delete(entityPath(t, 'business_menu_item', 'trash', deleted.uuid))
        .set(a.headers);
      expect(expectOk<EntityResponse>(byDelete, 200).trashed_at).not.toBeNull();
      const again = await t.http
        .delete(entityPath(t, 'business_menu_item', 'trash', deleted.uuid))
        .set(a.headers);
      expect(expectOk<EntityResponse>(again).trashed_at).toBe(byDelete.body.data.trashed_at);

      expect(await listed(a)).toEqual([kept.uuid]);
      expect(await listed(b)).toEqual([kept.uuid]);

      const restored = await t.http
        .post(entityPath(t, 'business_menu_item', 'restore', posted.uuid))
        .set(a.headers);
      expect(expectOk<EntityResponse>(restored, 200).trashed_at).toBeNull();
      expect(await listed(a)).toEqual([kept.uuid, posted.uuid].sort());
      // Restoring a live record answers it unchanged.
      expect(
        expectOk<EntityResponse>(
          await t.http
            .post(entityPath(t, 'business_menu_item', 'restore', kept.uuid))
            .set(a.headers),
          200,
        ).trashed_at,
      ).toBeNull();
    });

    it("refuses B's trash and restore of A's records with 403 and changes nothing", async () => {
      const live = await newBusiness(t, a);
      const trashed = await newBusiness(t, a);
      expectOk(
        await t.http.post(entityPath(t, 'business', 'trash', trashed.uuid)).set(a.headers),
        200,
      );
      await refusedWithoutChange(
        () => t.http.post(entityPath(t, 'business', 'trash', live.uuid)).set(b.headers),
        403,
        'FORBIDDEN',
      );
      await refusedWithoutChange(
        () => t.http.delete(entityPath(t, 'business', 'trash', live.uuid)).set(b.headers),
        403,
        'FORBIDDEN',
      );
      await refusedWithoutChange(
        () => t.http.post(entityPath(t, 'business', 'restore', trashed.uuid)).set(b.headers),
        403,
        'FORBIDDEN',
      );
      await refusedWithoutChange(
        () => t.http.post(entityPath(t, 'business', 'trash', randomUUID())).set(a.headers),
        404,
        'NOT_FOUND',
      );
      await refusedWithoutChange(
        () => t.http.post(entityPath(t, 'business', 'trash', live.uuid)).set(apiHeaders(t)),
        401,
        'UNAUTHENTICATED',
      );
    });

    it("makes public reads of a trashed business's menu and items 404 until it is restored", async () => {
      const business = await newBusiness(t, a);
      const menu = await newMenu(t, a, business);
      const item = await newItem(t, a, menu);
      const guestGet = (suffix: 'business_menu' | 'business_menu_item', uuid: string) =>
        t.http.get(entityPath(t, suffix, uuid)).set(apiHeaders(t));
      expectOk(await guestGet('business_menu', menu.uuid));

      expectOk(
        await t.http.post(entityPath(t, 'business', 'trash', business.uuid)).set(a.headers),
        200,
      );
      expectError(await guestGet('business_menu', menu.uuid), 404, 'NOT_FOUND');
      expectError(await guestGet('business_menu_item', item.uuid), 404, 'NOT_FOUND');
      expectError(
        await t.http.get(entityPath(t, 'business_menu', menu.uuid)).set(b.headers),
        404,
        'NOT_FOUND',
      );
      const guestMenus = expectOk<EntityResponse[]>(
        await t.http
          .get(entityPath(t, 'business_menu'))
          .query({ parent_entity_uuid: business.uuid })
          .set(apiHeaders(t)),
      );
      expect(guestMenus).toEqual([]);
      // The owner still reaches their live menu.
      expectOk(await t.http.get(entityPath(t, 'business_menu', menu.uuid)).set(a.headers));

      expectOk(
        await t.http.post(entityPath(t, 'business', 'restore', business.uuid)).set(a.headers),
        200,
      );
      expectOk(await guestGet('business_menu', menu.uuid));
      expectOk(await guestGet('business_menu_item', item.uuid));
    });
  });

  describe('entity_featured_url check', () => {
    const seen: FeaturedUrlCheckInput[] = [];

    beforeAll(() => {
      t.app.get(FeaturedUrlChecks).register(async (input) => {
        seen.push(input);
        if (input.url.includes('/refused/')) {
          throw ApiError.unprocessable('This upload is not an allowed image.', [
            { field: 'entity_featured_url', message: 'not an allowed image' },
          ]);
        }
      });
    });

    it('runs registered checks when a record first gets a URL, and refuses with their error', async () => {
      await refusedWithoutChange(
        () =>
          t.http.post(entityPath(t, 'business')).set(a.headers).send({
            meta_key: 'Refused logo',
            entity_featured_url: 'https://cdn.example.test/refused/x.svg',
          }),
        422,
        'UNPROCESSABLE',
      );
      seen.length = 0;
      const business = await newBusiness(t, a, {
        entity_featured_url: 'http://localhost:3000/files/ok/logo.png',
      });
      expect(seen).toEqual([
        {
          url: 'http://localhost:3000/files/ok/logo.png',
          ownerUuid: a.uuid,
          entityType: entityType(t, 'business'),
          recordUuid: null,
        },
      ]);

      seen.length = 0;
      await t.http
        .put(entityPath(t, 'business', business.uuid))
        .set(a.headers)
        .send({ entity_featured_url: business.entity_featured_url, title_name: 'same logo' });
      expect(seen).toEqual([]);

      await refusedWithoutChange(
        () =>
          t.http
            .put(entityPath(t, 'business', business.uuid))
            .set(a.headers)
            .send({ entity_featured_url: 'https://cdn.example.test/refused/y.png' }),
        422,
        'UNPROCESSABLE',
      );
      expect(seen.map((input) => input.recordUuid)).toEqual([business.uuid]);
    });
  });
});

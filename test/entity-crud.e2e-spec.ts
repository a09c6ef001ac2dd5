import { randomUUID } from 'node:crypto';
import { ApiError } from '../src/http/api-error';
import { FeaturedUrlChecks, FeaturedUrlCheckInput } from '../src/entity/featured-url-check';
import {
  entityPath,
  entityType,
  EntityResponse,
  newBusiness,
  newItem,
  newMenu,
} from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

const RECORD_FIELDS = [
  'uuid',
  'entity_type',
  'request_id',
  'slug',
  'meta_key',
  'meta_value',
  'title_name',
  'description',
  'entity_featured_url',
  'status',
  'owned_by',
  'parent_entity_type',
  'parent_entity_uuid',
  'extra_data',
  'created_at',
  'updated_at',
];

const itemExtra = {
  unit_price_amount: '5.00',
  minimum_quantity_per_order: 1,
  maximum_quantity_per_order: 3,
};

// R6: unknown fields.
// R11: lookup by meta_key.
// R12: restore.
// R13: idempotent create.
// R14: unique storefront names.
describe('entities: create, read, update, trash, restore', () => {
  let t: TestApp;
  let a: TestUser;
  let b: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    a = await createUser(t);
    b = await createUser(t);
  });
  afterAll(() => t?.close());

  async function countEntities(): Promise<number> {
    const rows = await t.dataSource.query('SELECT count(*)::int AS n FROM entities');
    return rows[0].n;
  }

  async function stored(uuid: string): Promise<Record<string, any>> {
    const rows = await t.dataSource.query('SELECT * FROM entities WHERE uuid = $1', [uuid]);
    return rows[0];
  }

  /** Runs `act`, expects the refusal, and checks that the entities table did not change. */
  async function refusedWithoutChange(
    act: () => Promise<import('supertest').Response>,
    status: number,
    code: string,
  ): Promise<import('supertest').Response> {
    const before = await t.dataSource.query('SELECT * FROM entities ORDER BY uuid');
    const res = await act();
    expectError(res, status, code);
    expect(await t.dataSource.query('SELECT * FROM entities ORDER BY uuid')).toEqual(before);
    return res;
  }

  describe('create', () => {
    it('creates a business owned by the caller (owned_by omitted) with the record shape', async () => {
      const res = await t.http
        .post(entityPath(t, 'business'))
        .set(a.headers)
        .send({
          request_id: '1732200000000',
          meta_key: 'Create Shape',
          meta_value: '',
          title_name: 'Create Shape',
          description: 'd',
          entity_featured_url: 'https://cdn.example.test/logo.png',
          extra_data: { business_address: 'x', enable_on_portal_listing: 'true' },
        });
      const record = expectOk<EntityResponse>(res, 201);
      expect(res.body.message).toBe('Business created');
      for (const field of RECORD_FIELDS) expect(record).toHaveProperty(field);
      expect(record).toMatchObject({
        entity_type: entityType(t, 'business'),
        request_id: '1732200000000',
        owned_by: a.uuid,
        status: 'enabled',
        parent_entity_type: null,
        parent_entity_uuid: null,
        trashed_at: null,
        extra_data: { business_address: 'x', enable_on_portal_listing: true },
      });
      expect((await stored(record.uuid)).owned_by).toBe(a.uuid);
    });

    it('accepts owned_by equal to the caller and a numeric request_id', async () => {
      const business = await newBusiness(t, a, { owned_by: a.uuid, request_id: 1732200000001 });
      expect(business.owned_by).toBe(a.uuid);
      expect(business.request_id).toBe('1732200000001');
    });

    it('never takes server-owned fields from the body and ignores unknown ones', async () => {
      const res = await t.http.post(entityPath(t, 'business')).set(a.headers).send({
        uuid: '',
        entity_type: 'svc_something_else',
        created_at: '2001-01-01T00:00:00.000Z',
        updated_at: '2001-01-01T00:00:00.000Z',
        trashed_at: '2001-01-01T00:00:00.000Z',
        created_by: b.uuid,
        parent_entity: 'x',
        data_type: 'business',
        meta_key: 'D6 business',
      });
      const record = expectOk<EntityResponse>(res, 201);
      expect(record.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(record.entity_type).toBe(entityType(t, 'business'));
      expect(record.trashed_at).toBeNull();
      expect(new Date(record.created_at).getFullYear()).toBeGreaterThan(2001);
      expect(record.owned_by).toBe(a.uuid);
      expect(record.extra_data).toEqual({});
    });

    it('answers 404 for an unknown type on every operation and stores nothing', async () => {
      const base = `${t.core}/smart-meta-manager/entity/svc_order`;
      const id = randomUUID();
      await refusedWithoutChange(
        () => t.http.post(base).set(a.headers).send({ meta_key: 'x' }),
        404,
        'NOT_FOUND',
      );
      expectError(await t.http.get(base).set(a.headers), 404, 'NOT_FOUND');
      expectError(await t.http.get(`${base}/${id}`).set(a.headers), 404, 'NOT_FOUND');
      expectError(
        await t.http.get(`${base}/retrieve-by-meta-key/x`).set(apiHeaders(t)),
        404,
        'NOT_FOUND',
      );
      expectError(await t.http.put(`${base}/${id}`).set(a.headers).send({}), 404, 'NOT_FOUND');
      expectError(await t.http.post(`${base}/trash/${id}`).set(a.headers), 404, 'NOT_FOUND');
      expectError(await t.http.delete(`${base}/trash/${id}`).set(a.headers), 404, 'NOT_FOUND');
      expectError(await t.http.post(`${base}/restore/${id}`).set(a.headers), 404, 'NOT_FOUND');
    });

    it('needs a Bearer token to create', async () => {
      await refusedWithoutChange(
        () => t.http.post(entityPath(t, 'business')).set(apiHeaders(t)).send({ meta_key: 'x' }),
        401,
        'UNAUTHENTICATED',
      );
    });

    it("refuses B's create with owned_by = A: 403, nothing stored", async () => {
      await refusedWithoutChange(
        () =>
          t.http
            .post(entityPath(t, 'business'))
            .set(b.headers)
            .send({ meta_key: 'Not yours', owned_by: a.uuid }),
        403,
        'FORBIDDEN',
      );
    });

    it('validates the top-level fields with one detail per bad field', async () => {
      const res = await refusedWithoutChange(
        () =>
          t.http
            .post(entityPath(t, 'business'))
            .set(a.headers)
            .send({
              status: 'archived',
              title_name: 7,
              entity_featured_url: 'javascript:alert(1)',
              extra_data: { contact_email: 'nope' },
            }),
        400,
        'VALIDATION_FAILED',
      );
      const fields = res.body.error.details.map((d: { field: string }) => d.field).sort();
      expect(fields).toEqual(['entity_featured_url', 'status', 'title_name']);

      const second = await refusedWithoutChange(
        () =>
          t.http
            .post(entityPath(t, 'business'))
            .set(a.headers)
            .send({ meta_key: '  ', extra_data: { contact_email: 'nope' } }),
        400,
        'VALIDATION_FAILED',
      );
      expect(second.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'extra_data.contact_email',
        'meta_key',
      ]);
    });

    it('normalises item extra_data: integer strings to integers, amounts to strings, unknown keys kept', async () => {
      const business = await newBusiness(t, a);
      const menu = await newMenu(t, a, business);
      const res = await t.http
        .post(entityPath(t, 'business_menu_item'))
        .set(a.headers)
        .send({
          title_name: 'Jollof',
          parent_entity_type: entityType(t, 'business_menu'),
          parent_entity_uuid: menu.uuid,
          extra_data: {
            tag: '',
            category: 'Food',
            unit_price_amount: 1500.5,
            minimum_quantity_per_order: '1',
            maximum_quantity_per_order: '12',
            sort_position: '3',
            spice: { level: 'hot' },
          },
        });
      const item = expectOk<EntityResponse>(res, 201);
      expect(res.body.message).toBe('Menu item created');
      expect(item.extra_data).toEqual({
        tag: '',
        category: 'Food',
        unit_price_amount: '1500.5',
        minimum_quantity_per_order: 1,
        maximum_quantity_per_order: 12,
        sort_position: 3,
        spice: { level: 'hot' },
      });
      expect((await stored(item.uuid)).extra_data.sort_position).toBe(3);
    });

    it('refuses bad item extra_data with one detail per field and stores nothing', async () => {
      const business = await newBusiness(t, a);
      const menu = await newMenu(t, a, business);
      const res = await refusedWithoutChange(
        () =>
          t.http
            .post(entityPath(t, 'business_menu_item'))
            .set(a.headers)
            .send({
              parent_entity_uuid: menu.uuid,
              extra_data: {
                unit_price_amount: '-2',
                minimum_quantity_per_order: 'one',
                maximum_quantity_per_order: 2.5,
                sort_position: '1.0',
              },
            }),
        400,
        'VALIDATION_FAILED',
      );
      expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'extra_data.maximum_quantity_per_order',
        'extra_data.minimum_quantity_per_order',
        'extra_data.sort_position',
        'extra_data.unit_price_amount',
      ]);
    });

    it('stores payment providers as an array or as an object keyed by provider', async () => {
      const business = await newBusiness(t, a);
      const providers = {
        paystack: { title: 'Card', description: 'Pay by card', fee: 1.5, fee_max_amount: 2000 },
        bank_transfer: { title: 'Bank transfer', description: '', fee: 0, fee_max_amount: 0 },
      };
      const asObject = await newMenu(t, a, business, {
        extra_data: { menu_checkout_payments_providers: providers },
      });
      expect(asObject.extra_data.menu_checkout_payments_providers).toEqual(providers);
      const asArray = await newMenu(t, a, business, {
        extra_data: { menu_checkout_payments_providers: ['paystack'] },
      });
      expect(asArray.extra_data.menu_checkout_payments_providers).toEqual(['paystack']);
    });

    it('caps extra_data at 64 KiB', async () => {
      await refusedWithoutChange(
        () =>
          t.http
            .post(entityPath(t, 'business'))
            .set(a.headers)
            .send({ meta_key: 'Too big', extra_data: { note: 'x'.repeat(70 * 1024) } }),
        400,
        'VALIDATION_FAILED',
      );
      const fits = await newBusiness(t, a, { extra_data: { note: 'x'.repeat(60 * 1024) } });
      expect(fits.extra_data.note).toHaveLength(60 * 1024);
    });
  });

  describe('parents', () => {
    let aBusiness: EntityResponse;
    let aMenu: EntityResponse;
    let bBusiness: EntityResponse;
    let bMenu: EntityResponse;

    beforeAll(async () => {
      aBusiness = await newBusiness(t, a);
      aMenu = await newMenu(t, a, aBusiness);
      bBusiness = await newBusiness(t, b);
      bMenu = await newMenu(t, b, bBusiness);
    });

    const menuBody = (parent: string, extra: Record<string, unknown> = {}) => ({
      meta_key: `menu-${randomUUID()}`,
      parent_entity_type: entityType(t, 'business'),
      parent_entity_uuid: parent,
      ...extra,
    });

    it('refuses a missing parent with 404', async () => {
      await refusedWithoutChange(
        () =>
          t.http.post(entityPath(t, 'business_menu')).set(a.headers).send(menuBody(randomUUID())),
        404,
        'NOT_FOUND',
      );
    });

    it("refuses hanging a menu under B's business with 403", async () => {
      await refusedWithoutChange(
        () =>
          t.http.post(entityPath(t, 'business_menu')).set(a.headers).send(menuBody(bBusiness.uuid)),
        403,
        'FORBIDDEN',
      );
    });

    it("refuses hanging an item under B's menu with 403", async () => {
      await refusedWithoutChange(
        () =>
          t.http
            .post(entityPath(t, 'business_menu_item'))
            .set(a.headers)
            .send({ parent_entity_uuid: bMenu.uuid, extra_data: itemExtra }),
        403,
        'FORBIDDEN',
      );
    });

    it('refuses a wrong parent type with 400', async () => {
      const wrongType = await refusedWithoutChange(
        () =>
          t.http
            .post(entityPath(t, 'business_menu'))
            .set(a.headers)
            .send(menuBody(aBusiness.uuid, { parent_entity_type: entityType(t, 'business_menu') })),
        400,
        'VALIDATION_FAILED',
      );
      expect(wrongType.body.error.details[0].field).toBe('parent_entity_type');
      // An item whose parent uuid names a business, not a menu.
      const wrongRecord = await refusedWithoutChange(
        () =>
          t.http
            .post(entityPath(t, 'business_menu_item'))
            .set(a.headers)
            .send({ parent_entity_uuid: aBusiness.uuid, extra_data: itemExtra }),
        400,
        'VALIDATION_FAILED',
      );
      expect(wrongRecord.body.error.details[0].field).toBe('parent_entity_uuid');
    });

    it('needs a parent for a menu or an item, and none for a business', async () => {
      const noParent = await refusedWithoutChange(
        () =>
          t.http
            .post(entityPath(t, 'business_menu_item'))
            .set(a.headers)
            .send({ parent_entity_uuid: '', extra_data: itemExtra }),
        400,
        'VALIDATION_FAILED',
      );
      expect(noParent.body.error.details[0].field).toBe('parent_entity_uuid');
      await refusedWithoutChange(
        () =>
          t.http
            .post(entityPath(t, 'business'))
            .set(a.headers)
            .send({ meta_key: 'With parent', parent_entity_uuid: aBusiness.uuid }),
        400,
        'VALIDATION_FAILED',
      );
    });

    it('refuses a parent in the trash with 404', async () => {
      const menu = await newMenu(t, a, aBusiness);
      expectOk(
        await t.http.post(entityPath(t, 'business_menu', 'trash', menu.uuid)).set(a.headers),
      );
      await refusedWithoutChange(
        () =>
          t.http
            .post(entityPath(t, 'business_menu_item'))
            .set(a.headers)
            .send({ parent_entity_uuid: menu.uuid, extra_data: itemExtra }),
        404,
        'NOT_FOUND',
      );
    });

    it('accepts the parent type left out (it is implied) and the own menu', async () => {
      const item = await newItem(t, a, aMenu, { parent_entity_type: undefined });
      expect(item.parent_entity_type).toBe(entityType(t, 'business_menu'));
      expect(item.parent_entity_uuid).toBe(aMenu.uuid);
    });
  });

  describe('request_id (idempotent create)', () => {
    it('gives the first record back with 200 for the same owner, type and request_id', async () => {
      const body = { request_id: '1732200000100', meta_key: 'Idempotent business' };
      const first = await t.http.post(entityPath(t, 'business')).set(a.headers).send(body);
      const created = expectOk<EntityResponse>(first, 201);
      const countAfterFirst = await countEntities();
      const again = await t.http
        .post(entityPath(t, 'business'))
        .set(a.headers)
        .send({ ...body, title_name: 'changed' });
      expect(expectOk<EntityResponse>(again, 200)).toEqual(created);
      expect(await countEntities()).toBe(countAfterFirst);
    });

    it('does not share a request_id across owners or types', async () => {
      const requestId = '1732200000200';
      const mine = await newBusiness(t, a, { request_id: requestId });
      const theirs = await newBusiness(t, b, { request_id: requestId });
      const menu = await newMenu(t, a, mine, { request_id: requestId });
      expect(new Set([mine.uuid, theirs.uuid, menu.uuid]).size).toBe(3);
    });

    it('two racing creates with the same request_id give one record', async () => {
      const before = await countEntities();
      const body = { request_id: '1732200000300', meta_key: 'Racing business' };
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          t.http.post(entityPath(t, 'business')).set(a.headers).send(body),
        ),
      );
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map((res) => res.body.data.uuid)).size).toBe(1);
      expect(await countEntities()).toBe(before + 1);
    });
  });

  describe('meta_key uniqueness', () => {
    it('refuses a business meta_key taken by a live business, ignoring case, with 409', async () => {
      await newBusiness(t, a, { meta_key: 'Mama Kitchen' });
      await refusedWithoutChange(
        () =>
          t.http.post(entityPath(t, 'business')).set(b.headers).send({ meta_key: 'mama KITCHEN' }),
        409,
        'CONFLICT',
      );
    });

    it('frees a trashed business meta_key; restoring the old one then is 409', async () => {
      const old = await newBusiness(t, a, { meta_key: 'Second Life' });
      expectOk(await t.http.post(entityPath(t, 'business', 'trash', old.uuid)).set(a.headers));
      const successor = await newBusiness(t, b, { meta_key: 'SECOND LIFE' });
      expect(successor.meta_key).toBe('SECOND LIFE');
      await refusedWithoutChange(
        () => t.http.post(entityPath(t, 'business', 'restore', old.uuid)).set(a.headers),
        409,
        'CONFLICT',
      );
      expect((await stored(old.uuid)).trashed_at).not.toBeNull();
    });

    it('keeps menu meta_keys unique within a business only; items may share one', async () => {
      const first = await newBusiness(t, a);
      const second = await newBusiness(t, a);
      const lunch = await newMenu(t, a, first, { meta_key: 'lunch' });
      await refusedWithoutChange(
        () =>
          t.http
            .post(entityPath(t, 'business_menu'))
            .set(a.headers)
            .send({ meta_key: 'LUNCH', parent_entity_uuid: first.uuid }),
        409,
        'CONFLICT',
      );
      expect((await newMenu(t, a, second, { meta_key: 'lunch' })).meta_key).toBe('lunch');
      const one = await newItem(t, a, lunch, { meta_key: 'coke' });
      const two = await newItem(t, a, lunch, { meta_key: 'coke' });
      expect(one.uuid).not.toBe(two.uuid);
    });

    it('lets exactly one of two racing creates of the same business meta_key win', async () => {
      const before = await countEntities();
      const answers = await Promise.all(
        [a, b, a, b].map((user) =>
          t.http.post(entityPath(t, 'business')).set(user.headers).send({ meta_key: 'Race Name' }),
        ),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409, 409]);
      expect(await countEntities()).toBe(before + 1);
    });

    it('refuses an update onto a taken meta_key with 409 and changes nothing', async () => {
      await newBusiness(t, b, { meta_key: 'Taken By B' });
      const mine = await newBusiness(t, a);
      await refusedWithoutChange(
        () =>
          t.http
            .put(entityPath(t, 'business', mine.uuid))
            .set(a.headers)
            .send({ meta_key: 'taken by b' }),
        409,
        'CONFLICT',
      );
    });
  });

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

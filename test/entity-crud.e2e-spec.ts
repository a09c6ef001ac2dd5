import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import {
  countEntities as countEntitiesOf,
  entityPath,
  entityType,
  EntityResponse,
  newBusiness,
  newItem,
  newMenu,
  refusedWithoutEntityChange,
  storedEntity,
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
// R13: idempotent create.
// R14: unique storefront names.
describe('entities: create, parents, request_id and meta_key', () => {
  let t: TestApp;
  let a: TestUser;
  let b: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    a = await createUser(t);
    b = await createUser(t);
  });
  afterAll(() => t?.close());

  const countEntities = () => countEntitiesOf(t);
  const stored = (uuid: string) => storedEntity(t, uuid);
  const refusedWithoutChange = (
    act: () => Promise<Response>,
    status: number,
    code: string,
  ): Promise<Response> => refusedWithoutEntityChange(t, act, status, code);

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
});

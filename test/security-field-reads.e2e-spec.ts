import { randomBytes } from 'node:crypto';
import { entityPath, EntityResponse, EntitySuffix, newBusiness } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { guestHeaders, orderBody, placeOrderRequest, updateOrderRequest } from './support/order';
import { newTeam, Team } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

const SUBACCOUNT = 'ACCT_m5victim';
const NOTES = 'n-victim-notes';

// R70: property-level reads.
describe('what a caller may not read, they may neither sort nor filter by', () => {
  let t: TestApp;
  let team: Team;
  let attacker: TestUser;
  let attackerBusiness: EntityResponse;
  let title: string;

  beforeAll(async () => {
    t = await startTestApp();
    team = await newTeam(t);
    attacker = await createUser(t);
    title = `Zebra Grill ${randomBytes(3).toString('hex')}`;
    const victim = team.catalog.business;
    expectOk(
      await t.http
        .put(entityPath(t, 'business', victim.uuid))
        .set(team.owner.headers)
        .send({
          title_name: title,
          extra_data: {
            ...victim.extra_data,
            paystack_subaccount_code: SUBACCOUNT,
            private_notes: NOTES,
          },
        }),
    );
    // Titled so that one q= matches both: the attacker's record lands beside the victim's.
    attackerBusiness = await newBusiness(t, attacker, { title_name: `${title} oracle` });
  });
  afterAll(() => t?.close());

  async function writeGuess(key: string, guess: string): Promise<void> {
    expectOk(
      await t.http
        .put(entityPath(t, 'business', attackerBusiness.uuid))
        .set(attacker.headers)
        .send({ extra_data: { ...attackerBusiness.extra_data, [key]: guess } }),
    );
  }

  function listBusinesses(headers: Record<string, string>, query: Record<string, string>) {
    return t.http
      .get(entityPath(t, 'business'))
      .query({ q: title, ...query })
      .set(headers);
  }

  it.each(['paystack_subaccount_code', 'private_notes'])(
    'refuses sort_by=extra_data.%s to the public and to other users, and the order seen never moves with a guess',
    async (key) => {
      const seen: string[][] = [];
      for (const guess of ['A', 'ACCT_m', 'ACCT_m5z', 'zzz', 'n-', 'o']) {
        await writeGuess(key, guess);
        for (const headers of [apiHeaders(t), attacker.headers, team.outsider.headers]) {
          for (const sort_order of ['asc', 'desc']) {
            const res = await listBusinesses(headers, {
              sort_by: `extra_data.${key}`,
              sort_order,
            });
            expectError(res, 400, 'VALIDATION_FAILED');
            expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([
              'sort_by',
            ]);
            // The ETag path is refused the same way: no 304 that depends on the order.
            const conditional = await listBusinesses(
              { ...headers, 'if-none-match': '*' },
              { sort_by: `extra_data.${key}` },
            );
            expectError(conditional, 400, 'VALIDATION_FAILED');
          }
          // What the attacker may sort by shows both records, in an order no guess changes.
          const readable = expectOk<EntityResponse[]>(
            await listBusinesses(headers, { sort_by: 'title_name' }),
          );
          seen.push(readable.map((record) => record.uuid));
          expect(JSON.stringify(readable)).not.toContain(SUBACCOUNT);
          expect(JSON.stringify(readable)).not.toContain(NOTES);
        }
      }
      expect(seen[0]).toEqual([team.catalog.business.uuid, attackerBusiness.uuid]);
      for (const order of seen) expect(order).toEqual(seen[0]);
    },
  );

  it('ignores a query parameter the list does not know, even one naming a private key', async () => {
    const plain = expectOk(await listBusinesses(apiHeaders(t), {}));
    const probed = expectOk(
      await listBusinesses(apiHeaders(t), {
        'extra_data.paystack_subaccount_code': SUBACCOUNT,
        private_notes: 'nothing',
      }),
    );
    expect(probed).toEqual(plain);
  });

  it('lets the owner sort their own records by a private setting', async () => {
    await writeGuess('private_notes', 'b');
    const other = await newBusiness(t, attacker, {
      title_name: `${title} second`,
      extra_data: { private_notes: 'a' },
    });
    const own = expectOk<EntityResponse[]>(
      await listBusinesses(attacker.headers, {
        owned_by: attacker.uuid,
        sort_by: 'extra_data.private_notes',
      }),
    );
    expect(own.map((record) => record.uuid)).toEqual([other.uuid, attackerBusiness.uuid]);
    // owned_by naming someone else is a public list of theirs.
    expectError(
      await listBusinesses(attacker.headers, {
        owned_by: team.owner.uuid,
        sort_by: 'extra_data.private_notes',
      }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it("sorts a business's menus by a private key for its owner and team, not for anyone else", async () => {
    const query = {
      parent_entity_uuid: team.catalog.business.uuid,
      sort_by: 'extra_data.private_cost',
    };
    const path = entityPath(t, 'business_menu');
    for (const headers of [team.owner.headers, team.manager.headers, team.staff.headers]) {
      const theirs = expectOk(await t.http.get(path).query(query).set(headers));
      expect(theirs.map((record: EntityResponse) => record.uuid)).toContain(team.catalog.menu.uuid);
    }
    const res = await t.http.get(path).query(query).set(apiHeaders(t));
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details[0].field).toBe('sort_by');
    // A public column stays sortable for everyone.
    expectOk(
      await t.http
        .get(path)
        .query({ ...query, sort_by: 'updated_at' })
        .set(apiHeaders(t)),
    );
  });
});

// R70: property-level reads.
describe('member uuids are not public', () => {
  let t: TestApp;
  let team: Team;

  beforeAll(async () => {
    t = await startTestApp({ STOREFRONT_CACHE_TTL_MS: '60000' });
    team = await newTeam(t);
    // The manager and the staff member write the business's records.
    const { business, menu, items } = team.catalog;
    expectOk(
      await t.http
        .put(entityPath(t, 'business', business.uuid))
        .set(team.manager.headers)
        .send({ extra_data: { ...business.extra_data, accepting_orders: true } }),
    );
    expectOk(
      await t.http
        .put(entityPath(t, 'business_menu', menu.uuid))
        .set(team.manager.headers)
        .send({ description: 'Written by the manager' }),
    );
    expectOk(
      await t.http
        .put(entityPath(t, 'business_menu_item', items[0].uuid))
        .set(team.staff.headers)
        .send({ extra_data: { ...items[0].extra_data, available: false } }),
    );
  });
  afterAll(() => t?.close());

  function expectNoMemberUuid(answer: unknown): void {
    const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
    expect(text).not.toContain(team.manager.uuid);
    expect(text).not.toContain(team.staff.uuid);
  }

  it('the storefront, retrieve-by-meta-key and public lists leave out updated_by', async () => {
    const { business, menu } = team.catalog;
    const storefront = expectOk(
      await t.http
        .get(`${t.core}/storefront/${business.meta_key}/menu/${menu.meta_key}`)
        .set(apiHeaders(t)),
    );
    expect(storefront.menu.updated_by).toBeNull();
    expect(storefront.items[0].updated_by).toBeNull();
    expectNoMemberUuid(storefront);
    const stored: Array<{ body: Buffer }> = await t.dataSource.query(
      'SELECT body FROM storefront_documents WHERE business_uuid = $1',
      [business.uuid],
    );
    expect(stored.length).toBeGreaterThan(0);
    for (const row of stored) expectNoMemberUuid(row.body.toString('utf8'));

    const byMetaKey = expectOk(
      await t.http
        .get(entityPath(t, 'business', 'retrieve-by-meta-key', business.meta_key!))
        .set(team.owner.headers),
    );
    expect(byMetaKey.updated_by).toBeNull();

    for (const headers of [apiHeaders(t), team.outsider.headers]) {
      for (const [suffix, query] of [
        ['business', { meta_key: business.meta_key! }],
        ['business_menu', { parent_entity_uuid: business.uuid }],
        ['business_menu_item', { parent_entity_uuid: menu.uuid }],
      ] as Array<[EntitySuffix, Record<string, string>]>) {
        const list = expectOk<EntityResponse[]>(
          await t.http.get(entityPath(t, suffix)).query(query).set(headers),
        );
        expect(list.length).toBeGreaterThan(0);
        for (const record of list) expect((record as any).updated_by).toBeNull();
        expectNoMemberUuid(list);
        const one = expectOk(await t.http.get(entityPath(t, suffix, list[0].uuid)).set(headers));
        expect(one.updated_by).toBeNull();
      }
    }
  });

  it('the owner and the team still read who wrote a record', async () => {
    const { menu, items } = team.catalog;
    for (const user of [team.owner, team.manager, team.staff]) {
      const read = expectOk(
        await t.http.get(entityPath(t, 'business_menu', menu.uuid)).set(user.headers),
      );
      expect(read.updated_by).toBe(team.manager.uuid);
      const listed = expectOk<Array<{ uuid: string; updated_by: string | null }>>(
        await t.http
          .get(entityPath(t, 'business_menu_item'))
          .query({ parent_entity_uuid: menu.uuid })
          .set(user.headers),
      );
      expect(listed.find((record) => record.uuid === items[0].uuid)?.updated_by).toBe(
        team.staff.uuid,
      );
    }
  });

  it("the guest's view of an order names who acted by role only, and so does a replayed placement", async () => {
    const headers = { ...guestHeaders(t), 'idempotency-key': `replay-${Date.now()}` };
    const item = team.catalog.items[0];
    expectOk(
      await t.http
        .put(entityPath(t, 'business_menu_item', item.uuid))
        .set(team.staff.headers)
        .send({ extra_data: { ...item.extra_data, available: true } }),
    );
    const body = orderBody(team.catalog);
    const placed = expectOk(await placeOrderRequest(t, body, headers), 201);
    expectOk(
      await updateOrderRequest(t, team.manager.headers, placed.uuid, {
        status: 'accepted',
        owner_note: 'regular, seat by the window',
      }),
    );
    const guestView = expectOk(
      await t.http
        .get(`${t.orders}/order/${placed.uuid}`)
        .set({ ...guestHeaders(t), 'x-order-token': placed.order_token }),
    );
    expect(guestView.history.map((entry: { actor: string }) => entry.actor)).toEqual([
      'guest',
      'manager',
    ]);
    for (const entry of guestView.history) expect(entry.by).toBeNull();
    expect(guestView).not.toHaveProperty('created_by');
    expectNoMemberUuid(guestView);

    const replay = await placeOrderRequest(t, body, headers);
    const replayed = expectOk(replay, 201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replayed.history.map((entry: { actor: string }) => entry.actor)).toContain('manager');
    expectNoMemberUuid(replayed);
    expect(JSON.stringify(replayed)).not.toContain('seat by the window');

    // The owner's own view still names the manager.
    const owners = expectOk(
      await t.http.get(`${t.core}/orders/${placed.uuid}`).set(team.owner.headers),
    );
    expect(owners.history.map((entry: { by: string | null }) => entry.by)).toContain(
      team.manager.uuid,
    );
  });
});

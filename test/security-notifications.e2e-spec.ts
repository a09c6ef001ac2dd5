import { expectOk } from './support/expect';
import { TestUser } from './support/factory';
import { orderBody, placeOrder } from './support/order';
import { addMember, membersPath, newTeam, Team } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

interface Listed {
  uuid: string;
  data: { business_uuid?: string; order_uuid?: string };
}

// R72: notifications follow the membership.
describe("a removed member loses the business's notifications with the membership", () => {
  let t: TestApp;
  let team: Team;

  beforeAll(async () => {
    t = await startTestApp();
    team = await newTeam(t);
  });
  afterAll(() => t?.close());

  const path = (user: TestUser, suffix = '') => `${t.core}/notification/user/${user.uuid}${suffix}`;

  async function listOf(user: TestUser, query: Record<string, string> = {}) {
    const res = await t.http.get(path(user)).query(query).set(user.headers);
    return { list: expectOk<Listed[]>(res), meta: res.body.meta };
  }

  async function storedFor(user: TestUser): Promise<number> {
    const [row] = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM notifications WHERE user_uuid = $1',
      [user.uuid],
    );
    return row.n;
  }

  it('lists them while the member may read the orders, and not from the moment they are removed', async () => {
    const order = await placeOrder(t, orderBody(team.catalog));
    const theirs = await placeOrder(t, orderBody(team.other));
    for (const user of [team.owner, team.staff, team.manager]) {
      const { list, meta } = await listOf(user);
      expect(list.map((n) => n.data.order_uuid)).toEqual([order.uuid]);
      expect(meta).toMatchObject({ total: 1, unread: 1 });
    }
    expect((await listOf(team.outsider)).list.map((n) => n.data.order_uuid)).toEqual([theirs.uuid]);

    const members = expectOk<Array<{ uuid: string; user_uuid: string }>>(
      await t.http.get(membersPath(t, team.catalog.business.uuid)).set(team.owner.headers),
    );
    const staffRow = members.find((member) => member.user_uuid === team.staff.uuid)!;
    expectOk(
      await t.http
        .delete(membersPath(t, team.catalog.business.uuid, staffRow.uuid))
        .set(team.owner.headers),
    );

    // Kept in the table, but no longer theirs to read: listed, counted or marked.
    expect(await storedFor(team.staff)).toBe(1);
    const removed = await listOf(team.staff);
    expect(removed.list).toEqual([]);
    expect(removed.meta).toMatchObject({ total: 0, unread: 0 });
    expect((await listOf(team.staff, { unread: 'true' })).list).toEqual([]);
    expect(
      expectOk(await t.http.post(path(team.staff, '/read')).set(team.staff.headers).send({})),
    ).toEqual({ marked: 0, unread: 0 });
    // A later order of the business reaches neither their table rows nor their list.
    await placeOrder(t, orderBody(team.catalog));
    expect(await storedFor(team.staff)).toBe(1);

    // The owner and the remaining member still read every one of them.
    for (const user of [team.owner, team.manager]) {
      const { list, meta } = await listOf(user);
      expect(list).toHaveLength(2);
      expect(meta).toMatchObject({ total: 2, unread: 2 });
    }

    // Taken back on, they read the business's notifications again.
    await addMember(t, team.owner, team.catalog.business.uuid, team.staff, 'staff');
    expect((await listOf(team.staff)).list.map((n) => n.data.order_uuid)).toEqual([order.uuid]);
  });
});

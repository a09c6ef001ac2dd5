import { expectOk } from './support/expect';
import { openOrderStream, openStream, orderBody, placeOrder } from './support/order';
import { membersPath, newTeam, Team } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

describe('teams: the order stream of managers and staff', () => {
  let t: TestApp;
  let team: Team;

  beforeAll(async () => {
    t = await startTestApp();
    team = await newTeam(t);
  });

  afterAll(async () => {
    await t.close();
  });

  function openNarrowed(token: string, business: string) {
    return openStream(t.baseUrl, `${t.core}/orders/stream`, {
      api_key: t.config.apiKeys[0],
      access_token: token,
      business_uuid: business,
    });
  }

  it('members receive the events of their business and never of another', async () => {
    const staff = await openOrderStream(t, team.staff.token);
    const manager = await openOrderStream(t, team.manager.token);
    const outsider = await openOrderStream(t, team.outsider.token);
    try {
      const other = await placeOrder(t, orderBody(team.other));
      await outsider.waitFor((e) => e.data?.uuid === other.uuid);
      const mine = await placeOrder(t, orderBody(team.catalog));
      for (const stream of [staff, manager]) {
        const event = await stream.waitFor((e) => e.data?.uuid === mine.uuid);
        expect(event.event).toBe('order.created');
        expect(event.data.business_uuid).toBe(team.catalog.business.uuid);
      }
      await outsider.waitFor((e) => e.event === 'order.created');
      for (const stream of [staff, manager]) {
        expect(stream.events.some((e) => e.data?.uuid === other.uuid)).toBe(false);
      }
      expect(outsider.events.some((e) => e.data?.uuid === mine.uuid)).toBe(false);
    } finally {
      staff.close();
      manager.close();
      outsider.close();
    }
  });

  it('business_uuid narrows the stream; a business the caller has no part in is 404', async () => {
    const refused = await openNarrowed(team.staff.token, team.other.business.uuid);
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body).error.code).toBe('NOT_FOUND');
    const narrowed = await openNarrowed(team.staff.token, team.catalog.business.uuid);
    try {
      const order = await placeOrder(t, orderBody(team.catalog));
      await narrowed.waitFor((e) => e.data?.uuid === order.uuid);
    } finally {
      narrowed.close();
    }
  });

  it('a removed member’s open stream ends within 5 s, saying why; their next request is refused', async () => {
    const cast = await newTeam(t);
    const business = cast.catalog.business.uuid;
    const stream = await openOrderStream(t, cast.staff.token);
    const [row] = await t.dataSource.query(
      'SELECT uuid FROM business_members WHERE business_uuid = $1 AND user_uuid = $2',
      [business, cast.staff.uuid],
    );
    const removedAt = Date.now();
    expectOk(await t.http.delete(membersPath(t, business, row.uuid)).set(cast.owner.headers));
    await stream.ended;
    expect(Date.now() - removedAt).toBeLessThan(5_000);
    expect(stream.events.at(-1)).toEqual({
      event: 'stream.closed',
      id: undefined,
      data: { reason: 'membership_changed' },
    });
    const again = await openNarrowed(cast.staff.token, business);
    expect(again.status).toBe(404);
  });

  it('the timer ends the stream too when the membership row goes without an announcement', async () => {
    const cast = await newTeam(t);
    const business = cast.catalog.business.uuid;
    const stream = await openOrderStream(t, cast.manager.token);
    const removedAt = Date.now();
    await t.dataSource.query(
      'DELETE FROM business_members WHERE business_uuid = $1 AND user_uuid = $2',
      [business, cast.manager.uuid],
    );
    await stream.ended;
    expect(Date.now() - removedAt).toBeLessThan(5_000);
    expect(stream.events.at(-1)?.event).toBe('stream.closed');
  });
});

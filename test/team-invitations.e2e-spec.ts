import { createHash } from 'node:crypto';
import { newBusiness } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { countMails, readMails } from './support/mail';
import { acceptRequest, addMember, invite, membersPath } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

const DAY_MS = 24 * 60 * 60 * 1000;

// R48: invitations.
describe('teams: invitations and members', () => {
  let t: TestApp;
  let owner: TestUser;
  let business: string;

  beforeAll(async () => {
    t = await startTestApp({ FRONT_URL: 'https://shop.example.test' });
    owner = await createUser(t);
    business = (await newBusiness(t, owner)).uuid;
  });

  afterAll(async () => {
    await t.close();
  });

  async function memberRows(uuid = business) {
    return (await t.dataSource.query(
      'SELECT * FROM business_members WHERE business_uuid = $1 ORDER BY invited_at',
      [uuid],
    )) as Array<Record<string, any>>;
  }

  it('invites by email: 201 with the invitation, one mail with an accept link whose token is stored only as a hash', async () => {
    const invitee = await createUser(t);
    const res = await t.http
      .post(membersPath(t, business))
      .set(owner.headers)
      .send({ email: invitee.email.toUpperCase(), role: 'staff' });
    const member = expectOk(res, 201);
    expect(member).toEqual({
      uuid: expect.any(String),
      email: invitee.email.toLowerCase(),
      role: 'staff',
      status: 'invited',
      user_uuid: null,
      invited_at: expect.any(String),
      expires_at: expect.any(String),
    });
    const lifetime = Date.parse(member.expires_at) - Date.parse(member.invited_at);
    expect(Math.abs(lifetime - 7 * DAY_MS)).toBeLessThan(60_000);

    const mails = await readMails(t, invitee.email);
    expect(mails).toHaveLength(1);
    const link = /(https:\/\/shop\.example\.test\/invitations\/accept\?token=)(\S+)/.exec(
      mails[0].text,
    );
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link![2]);
    expect(encodeURIComponent(token)).toBe(link![2]);
    // At least 128 bits: 22 or more base64url characters.
    expect(token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const [row] = (await memberRows()).filter((r) => r.uuid === member.uuid);
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(await memberRows())).not.toContain(token);
  });

  it('accepts with the invited account: the membership is active and listed in /memberships', async () => {
    const invitee = await createUser(t);
    const { member, token } = await invite(t, owner, business, invitee.email, 'manager');
    const accepted = expectOk(await acceptRequest(t, invitee, token));
    expect(accepted).toEqual({
      uuid: member.uuid,
      business_uuid: business,
      business: { uuid: business, meta_key: expect.any(String), title_name: expect.any(String) },
      role: 'manager',
      status: 'active',
    });
    const memberships = expectOk(await t.http.get(`${t.core}/memberships`).set(invitee.headers));
    expect(memberships).toEqual([accepted]);
    const list = expectOk(await t.http.get(membersPath(t, business)).set(owner.headers));
    expect(list.find((m: any) => m.uuid === member.uuid)).toMatchObject({
      status: 'active',
      user_uuid: invitee.uuid,
      role: 'manager',
    });
  });

  it('a token works once: a second accept is 404', async () => {
    const invitee = await createUser(t);
    const { token } = await invite(t, owner, business, invitee.email, 'staff');
    expectOk(await acceptRequest(t, invitee, token));
    expectError(await acceptRequest(t, invitee, token), 404, 'NOT_FOUND');
  });

  it('an unknown token is 404', async () => {
    const invitee = await createUser(t);
    expectError(await acceptRequest(t, invitee, 'not-a-token-at-all-0000000000'), 404, 'NOT_FOUND');
  });

  it('an expired token is 404 and nothing changes', async () => {
    const invitee = await createUser(t);
    const { member, token } = await invite(t, owner, business, invitee.email, 'staff');
    await t.dataSource.query(
      `UPDATE business_members SET expires_at = now() - interval '1 second' WHERE uuid = $1`,
      [member.uuid],
    );
    expectError(await acceptRequest(t, invitee, token), 404, 'NOT_FOUND');
    const [row] = (await memberRows()).filter((r) => r.uuid === member.uuid);
    expect(row.status).toBe('invited');
    expect(row.user_uuid).toBeNull();
  });

  it('accepting with another account is 422 and the token is not spent', async () => {
    const invitee = await createUser(t);
    const stranger = await createUser(t);
    const { member, token } = await invite(t, owner, business, invitee.email, 'staff');
    expectError(await acceptRequest(t, stranger, token), 422, 'UNPROCESSABLE');
    const [row] = (await memberRows()).filter((r) => r.uuid === member.uuid);
    expect(row.status).toBe('invited');
    expect(row.user_uuid).toBeNull();
    expect(expectOk(await t.http.get(`${t.core}/memberships`).set(stranger.headers))).toEqual([]);
    expectOk(await acceptRequest(t, invitee, token));
  });

  it('withdrawing an invitation voids its token at once', async () => {
    const invitee = await createUser(t);
    const { member, token } = await invite(t, owner, business, invitee.email, 'staff');
    expectOk(await t.http.delete(membersPath(t, business, member.uuid)).set(owner.headers));
    expectError(await acceptRequest(t, invitee, token), 404, 'NOT_FOUND');
    expect((await memberRows()).find((r) => r.uuid === member.uuid)).toBeUndefined();
  });

  it('an address with an open invitation or a membership is 409, whatever its letter case', async () => {
    const invited = await createUser(t);
    await invite(t, owner, business, invited.email, 'staff');
    const member = await createUser(t);
    await addMember(t, owner, business, member, 'staff');
    for (const email of [invited.email.toUpperCase(), member.email.toUpperCase()]) {
      const before = await memberRows();
      const mails = await countMails(t, email);
      const res = await t.http
        .post(membersPath(t, business))
        .set(owner.headers)
        .send({ email, role: 'manager' });
      expectError(res, 409, 'CONFLICT');
      expect(await memberRows()).toEqual(before);
      expect(await countMails(t, email)).toBe(mails);
    }
  });

  it('an expired invitation does not block a new one', async () => {
    const invitee = await createUser(t);
    const { member } = await invite(t, owner, business, invitee.email, 'staff');
    await t.dataSource.query(
      `UPDATE business_members SET expires_at = now() - interval '1 second' WHERE uuid = $1`,
      [member.uuid],
    );
    const { token } = await invite(t, owner, business, invitee.email, 'manager');
    expect(expectOk(await acceptRequest(t, invitee, token)).role).toBe('manager');
  });

  it('the owner cannot invite themself (422)', async () => {
    const before = await memberRows();
    const res = await t.http
      .post(membersPath(t, business))
      .set(owner.headers)
      .send({ email: owner.email.toUpperCase(), role: 'manager' });
    expectError(res, 422, 'UNPROCESSABLE');
    expect(await memberRows()).toEqual(before);
  });

  it('role must be manager or staff (400)', async () => {
    for (const role of ['owner', 'admin', '']) {
      const res = await t.http
        .post(membersPath(t, business))
        .set(owner.headers)
        .send({ email: 'someone@example.test', role });
      expectError(res, 400, 'VALIDATION_FAILED');
    }
  });

  it('at most 50 members and open invitations per business: the 51st is 422', async () => {
    const crowded = (await newBusiness(t, owner)).uuid;
    for (let i = 0; i < 50; i++) {
      const res = await t.http
        .post(membersPath(t, crowded))
        .set(owner.headers)
        .send({ email: `crowd-${i}@example.test`, role: 'staff' });
      expectOk(res, 201);
    }
    const res = await t.http
      .post(membersPath(t, crowded))
      .set(owner.headers)
      .send({ email: 'crowd-50@example.test', role: 'staff' });
    expectError(res, 422, 'UNPROCESSABLE');
    expect(await memberRows(crowded)).toHaveLength(50);
    const page = await t.http.get(membersPath(t, crowded)).set(owner.headers);
    expect(page.body.meta).toMatchObject({ total: 50 });
    // Oldest first.
    const listed = expectOk(page).map((m: any) => m.email);
    expect(listed[0]).toBe('crowd-0@example.test');
    expect(listed[49]).toBe('crowd-49@example.test');
  });

  it('the owner changes a role; a member leaves; the owner removes a member', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const ma = await addMember(t, owner, business, a, 'staff');
    const mb = await addMember(t, owner, business, b, 'staff');
    const changed = expectOk(
      await t.http
        .put(membersPath(t, business, ma.uuid))
        .set(owner.headers)
        .send({ role: 'manager' }),
    );
    expect(changed).toMatchObject({ uuid: ma.uuid, role: 'manager', status: 'active' });
    expect(expectOk(await t.http.get(`${t.core}/memberships`).set(a.headers))[0].role).toBe(
      'manager',
    );

    // A member may not remove someone else, even as manager.
    expectError(
      await t.http.delete(membersPath(t, business, mb.uuid)).set(a.headers),
      403,
      'FORBIDDEN',
    );
    expect((await memberRows()).some((r) => r.uuid === mb.uuid)).toBe(true);

    expectOk(await t.http.delete(membersPath(t, business, ma.uuid)).set(a.headers));
    expect(expectOk(await t.http.get(`${t.core}/memberships`).set(a.headers))).toEqual([]);
    expectOk(await t.http.delete(membersPath(t, business, mb.uuid)).set(owner.headers));
    expect(expectOk(await t.http.get(`${t.core}/memberships`).set(b.headers))).toEqual([]);
  });

  it('a business the caller has no part in is 404 on every members route', async () => {
    const outsider = await createUser(t);
    const member = await createUser(t);
    const m = await addMember(t, owner, business, member, 'staff');
    const before = await memberRows();
    const headers = outsider.headers;
    expectError(
      await t.http
        .post(membersPath(t, business))
        .set(headers)
        .send({ email: 'x@example.test', role: 'staff' }),
      404,
      'NOT_FOUND',
    );
    expectError(await t.http.get(membersPath(t, business)).set(headers), 404, 'NOT_FOUND');
    expectError(
      await t.http
        .put(membersPath(t, business, m.uuid))
        .set(headers)
        .send({ role: 'manager' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.http.delete(membersPath(t, business, m.uuid)).set(headers),
      404,
      'NOT_FOUND',
    );
    expect(await memberRows()).toEqual(before);
  });

  it('a member uuid of another business is 404', async () => {
    const second = (await newBusiness(t, owner)).uuid;
    const member = await createUser(t);
    const m = await addMember(t, owner, second, member, 'staff');
    expectError(
      await t.http
        .put(membersPath(t, business, m.uuid))
        .set(owner.headers)
        .send({ role: 'manager' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.http.delete(membersPath(t, business, m.uuid)).set(owner.headers),
      404,
      'NOT_FOUND',
    );
  });
});

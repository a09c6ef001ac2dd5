import { randomUUID } from 'node:crypto';
import { ApiError } from '../../src/http/api-error';
import { AccessPolicy } from '../../src/team/access-policy';
import { MembersService } from '../../src/team/members.service';
import { TeamModule } from '../../src/team/team.module';
import { TeamRepository } from '../../src/team/team.repository';
import { createMediumContext, MediumContext } from '../support/medium';
import { MediumEntity, MediumUser, newEntity, newMember, newUser } from '../support/medium-factory';

// R47: roles.
// R49: access at every request.
/**
 * The access policy and the team's repository on a real database, no HTTP:
 * who has which role on which business, read at every call, and the
 * membership reads the invitation flow makes.
 */
describe('team: access policy and repository (medium)', () => {
  let ctx: MediumContext;
  let policy: AccessPolicy;
  let team: TeamRepository;
  let owner: MediumUser;
  let manager: MediumUser;
  let staff: MediumUser;
  let invited: MediumUser;
  let outsider: MediumUser;
  let business: MediumEntity;
  let other: MediumEntity;
  let menu: MediumEntity;
  let businessType: string;

  beforeAll(async () => {
    ctx = await createMediumContext({ imports: [TeamModule] });
    policy = ctx.get(AccessPolicy);
    team = ctx.get(TeamRepository);
    businessType = `${ctx.config.namespace}_business`;
    [owner, manager, staff, invited, outsider] = await Promise.all(
      Array.from({ length: 5 }, () => newUser(ctx)),
    );
    business = await newEntity(ctx, 'business', owner.uuid, { titleName: 'Bukka' });
    other = await newEntity(ctx, 'business', outsider.uuid);
    menu = await newEntity(ctx, 'business_menu', owner.uuid, { parent: business });
    await newMember(ctx, business, manager, 'manager');
    await newMember(ctx, business, staff, 'staff');
    await newMember(ctx, business, invited, 'staff', 'invited');
    // The staff member also manages the outsider's business.
    await newMember(ctx, other, staff, 'manager');
  });
  afterAll(() => ctx?.close());

  const user = (u: MediumUser) => ({ uuid: u.uuid });

  describe('roles', () => {
    it('answers the owner by owned_by and members by their active membership only', async () => {
      const roleOf = (u: MediumUser) => policy.roleOn(user(u), business.uuid);
      expect(await roleOf(owner)).toBe('owner');
      expect(await roleOf(manager)).toBe('manager');
      expect(await roleOf(staff)).toBe('staff');
      expect(await roleOf(invited)).toBeUndefined();
      expect(await roleOf(outsider)).toBeUndefined();
    });

    it('reads any number of businesses in one call, ignoring malformed ids and records of other types', async () => {
      const roles = await policy.rolesOn(staff.uuid, [
        business.uuid.toUpperCase(),
        other.uuid,
        menu.uuid,
        'not-a-uuid',
        randomUUID(),
      ]);
      expect(roles).toEqual(
        new Map([
          [business.uuid, 'staff'],
          [other.uuid, 'manager'],
        ]),
      );
      expect(await policy.rolesOn('not-a-uuid', [business.uuid])).toEqual(new Map());
      expect(await policy.rolesOn(staff.uuid, [])).toEqual(new Map());
    });

    it('answers which businesses allow an action, by the role table', async () => {
      const both = [business.uuid, other.uuid];
      expect(await policy.allowed(user(staff), 'payment.refund', both)).toEqual(
        new Set([other.uuid]),
      );
      expect(await policy.allowed(user(staff), 'order.read', both)).toEqual(new Set(both));
      expect(await policy.allowed(user(manager), 'members.manage', both)).toEqual(new Set());
      expect(await policy.allowed(user(owner), 'members.manage', both)).toEqual(
        new Set([business.uuid]),
      );
    });

    it('reads inside the caller transaction: a membership written there counts at once', async () => {
      const newcomer = await newUser(ctx);
      await ctx.dataSource.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO business_members (business_uuid, email, role, status, user_uuid, invited_by,
             expires_at, accepted_at)
           VALUES ($1, $2, 'staff', 'active', $3, $4, now(), now())`,
          [business.uuid, newcomer.email, newcomer.uuid, owner.uuid],
        );
        expect(await policy.roleOn(user(newcomer), business.uuid, tx)).toBe('staff');
      });
      expect(await policy.roleOn(user(newcomer), business.uuid)).toBe('staff');
    });
  });

  describe('requireAccess', () => {
    it('answers the role when the action is allowed', async () => {
      await expect(
        policy.requireAccess(user(manager), 'order.update', business.uuid),
      ).resolves.toBe('manager');
    });

    it('refuses a role without the action with 403 FORBIDDEN naming the role', async () => {
      const refusal = await policy
        .requireAccess(user(staff), 'payment.refund', business.uuid)
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ApiError);
      expect((refusal as ApiError).getStatus()).toBe(403);
      expect((refusal as ApiError).message).toBe(
        'Your role (staff) on this business does not allow this.',
      );
    });

    it('refuses a caller with no part as 403, or 404 where the record is not to be revealed', async () => {
      const forbidden = await policy
        .requireAccess(user(outsider), 'business.read', business.uuid)
        .catch((error: unknown) => error);
      expect((forbidden as ApiError).getStatus()).toBe(403);
      const hidden = await policy
        .requireAccess(user(invited), 'members.read', business.uuid, {
          noPart: 'not_found',
          message: 'Business not found.',
        })
        .catch((error: unknown) => error);
      expect((hidden as ApiError).getStatus()).toBe(404);
      expect((hidden as ApiError).message).toBe('Business not found.');
    });
  });

  describe('businesses of a user', () => {
    it('lists owned businesses and those whose members they are with a role that allows the action', async () => {
      expect((await policy.businessesFor(staff.uuid, 'order.read')).sort()).toEqual(
        [business.uuid, other.uuid].sort(),
      );
      expect(await policy.businessesFor(staff.uuid, 'payment.refund')).toEqual([other.uuid]);
      expect(await policy.businessesFor(owner.uuid, 'webhook.manage')).toEqual([business.uuid]);
      expect(await policy.businessesFor(invited.uuid, 'order.read')).toEqual([]);
      expect(await policy.businessesFor('not-a-uuid', 'order.read')).toEqual([]);
    });

    it('answers member businesses of many users in one statement, and concurrent single reads alike', async () => {
      const found = await policy.memberBusinessesOf(
        [manager.uuid, staff.uuid, owner.uuid, 'nope'],
        'order.read',
      );
      expect(found).toEqual(
        new Map([
          [manager.uuid, new Set([business.uuid])],
          [staff.uuid, new Set([business.uuid, other.uuid])],
        ]),
      );
      expect(await policy.memberBusinessesOf([manager.uuid], 'webhook.manage')).toEqual(new Map());
      const [ofManager, ofStaff, ofOwner] = await Promise.all([
        policy.memberBusinesses(manager.uuid.toUpperCase(), 'payment.refund'),
        policy.memberBusinesses(staff.uuid, 'payment.refund'),
        policy.memberBusinesses(owner.uuid, 'payment.refund'),
      ]);
      expect(ofManager).toEqual([business.uuid]);
      expect(ofStaff).toEqual([other.uuid]);
      expect(ofOwner).toEqual([]);
    });

    it('a removed membership is gone at the very next call', async () => {
      const leaver = await newUser(ctx);
      const member = await newMember(ctx, business, leaver, 'manager');
      expect(await policy.memberBusinesses(leaver.uuid, 'order.read')).toEqual([business.uuid]);
      await ctx.sql('DELETE FROM business_members WHERE uuid = $1', [member]);
      expect(await policy.memberBusinesses(leaver.uuid, 'order.read')).toEqual([]);
      expect(await policy.roleOn(user(leaver), business.uuid)).toBeUndefined();
    });
  });

  describe('repository reads of the invitation flow', () => {
    it('locks a business of the business type only, with its owner and names', async () => {
      await ctx.dataSource.transaction(async (tx) => {
        expect(await team.lockBusiness(tx, business.uuid, businessType)).toEqual({
          uuid: business.uuid,
          ownedBy: owner.uuid,
          metaKey: business.metaKey,
          titleName: 'Bukka',
        });
        expect(await team.lockBusiness(tx, menu.uuid, businessType)).toBeUndefined();
      });
    });

    it("reads a user's email, counts members and invitations, and deletes only lapsed invitations", async () => {
      const shop = await newEntity(ctx, 'business', owner.uuid);
      const [late, open] = [await newUser(ctx), await newUser(ctx)];
      const lapsed = await newMember(ctx, shop, late, 'staff', 'invited');
      await newMember(ctx, shop, open, 'staff', 'invited');
      await newMember(ctx, shop, manager, 'manager');
      await ctx.sql(
        `UPDATE business_members SET expires_at = now() - interval '1 minute' WHERE uuid = $1`,
        [lapsed],
      );
      // The embedded database has one connection: inside the transaction, only `tx` is read.
      await ctx.dataSource.transaction(async (tx) => {
        expect(await team.emailOf(tx, owner.uuid)).toBe(owner.email);
        expect(await team.emailOf(tx, randomUUID())).toBeUndefined();
        expect(await team.countMembers(tx, shop.uuid)).toBe(3);
        await team.deleteLapsedInvitations(tx, shop.uuid, new Date());
        expect(await team.countMembers(tx, shop.uuid)).toBe(2);
      });
      const left = await ctx.sql<{ uuid: string }>(
        'SELECT uuid::text AS uuid FROM business_members WHERE uuid = $1',
        [lapsed],
      );
      expect(left).toEqual([]);
    });

    it("lists a user's active memberships with the businesses' names, oldest first", async () => {
      const memberships = await ctx.get(MembersService).listMemberships(user(staff));
      expect(memberships.map((m) => [m.business_uuid, m.role, m.status])).toEqual([
        [business.uuid, 'staff', 'active'],
        [other.uuid, 'manager', 'active'],
      ]);
      expect(memberships[0].business).toEqual({
        uuid: business.uuid,
        meta_key: business.metaKey,
        title_name: 'Bukka',
      });
      const rows = await team.memberships(
        ctx.dataSource.manager,
        staff.uuid,
        businessType,
        memberships[1].uuid,
      );
      expect(rows.map((row) => row.businessUuid)).toEqual([other.uuid]);
      expect(await team.memberships(ctx.dataSource.manager, invited.uuid, businessType)).toEqual(
        [],
      );
    });
    it('stores one open invitation per address, pages members without lapsed ones, and activates by token', async () => {
      const shop = await newEntity(ctx, 'business', owner.uuid);
      const guest = await newUser(ctx);
      const now = new Date();
      const invitation = (email: string, expiresAt: Date) => ({
        businessUuid: shop.uuid,
        email,
        role: 'staff' as const,
        tokenHash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
        invitedBy: owner.uuid,
        expiresAt,
      });
      const week = new Date(now.getTime() + 7 * 86_400_000);
      const open = await ctx.dataSource.transaction((tx) =>
        team.insertInvitation(tx, invitation(guest.email, week)),
      );
      expect(open).toMatchObject({ status: 'invited', userUuid: null, role: 'staff' });
      expect(
        await ctx.dataSource.transaction((tx) =>
          team.insertInvitation(tx, invitation(guest.email, week)),
        ),
      ).toBeNull();
      await ctx.dataSource.transaction((tx) =>
        team.insertInvitation(
          tx,
          invitation('lapsed@example.test', new Date(now.getTime() - 1000)),
        ),
      );
      const [page, total] = await team.pageOfMembers(shop.uuid, now, 1, 10);
      expect([page.map((row) => row.uuid), total]).toEqual([[open!.uuid], 1]);

      await ctx.dataSource.transaction(async (tx) => {
        const locked = await team.lockOpenInvitation(tx, open!.tokenHash!);
        expect(locked?.uuid).toBe(open!.uuid);
        await team.activate(tx, open!.uuid, guest.uuid, now);
      });
      await ctx.dataSource.transaction(async (tx) =>
        expect(await team.lockOpenInvitation(tx, open!.tokenHash!)).toBeUndefined(),
      );
      expect(await policy.roleOn(user(guest), shop.uuid)).toBe('staff');
      await team.setRole(open!.uuid, 'manager');
      expect(await team.findMember(shop.uuid, open!.uuid)).toMatchObject({
        role: 'manager',
        status: 'active',
        userUuid: guest.uuid,
        tokenHash: null,
      });
      expect(await team.findMember(randomUUID(), open!.uuid)).toBeNull();
      await team.deleteMember(open!.uuid);
      expect(await policy.roleOn(user(guest), shop.uuid)).toBeUndefined();
    });
  });
});

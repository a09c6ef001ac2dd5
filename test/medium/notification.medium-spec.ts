import { randomUUID } from 'node:crypto';
import { NotificationRepository } from '../../src/notification/notification.repository';
import { createMediumContext, MediumContext } from '../support/medium';
import { newEntity, newMember, newUser } from '../support/medium-factory';

// R72: notifications follow the membership.
/**
 * The notification repository on a real database, no HTTP: a notification
 * about a business's order goes to the owner and to the members whose role
 * reads orders; each reader lists, counts and marks only what is about a
 * business they may read now (or about none).
 */
describe('notification repository (medium)', () => {
  let ctx: MediumContext;
  let notifications: NotificationRepository;

  beforeAll(async () => {
    ctx = await createMediumContext({ providers: [NotificationRepository] });
    notifications = ctx.get(NotificationRepository);
  });
  afterAll(() => ctx?.close());

  const notify = (userUuid: string, data: Record<string, unknown>, title = 'New order') =>
    ctx.dataSource.transaction((m) =>
      notifications.insert(m, { userUuid, kind: 'order', title, body: 'Body', data }),
    );

  it("copies a business's notification to its active members, never to invited ones", async () => {
    const [owner, manager, staff, invited] = [
      await newUser(ctx),
      await newUser(ctx),
      await newUser(ctx),
      await newUser(ctx),
    ];
    const business = await newEntity(ctx, 'business', owner.uuid);
    await newMember(ctx, business, manager, 'manager');
    await newMember(ctx, business, staff, 'staff');
    await newMember(ctx, business, invited, 'staff', 'invited');
    await notify(owner.uuid, { business_uuid: business.uuid, order_uuid: randomUUID() });
    const rows = await ctx.sql<{ user_uuid: string }>(
      `SELECT user_uuid::text AS user_uuid FROM notifications
        WHERE data ->> 'business_uuid' = $1 ORDER BY user_uuid`,
      [business.uuid],
    );
    expect(rows.map((row) => row.user_uuid)).toEqual([owner.uuid, manager.uuid, staff.uuid].sort());
  });

  it('lists, counts and marks read only what is about no business or a readable one', async () => {
    const user = await newUser(ctx);
    const readable = randomUUID();
    const gone = randomUUID();
    await notify(user.uuid, {}, 'About nothing');
    await notify(user.uuid, { business_uuid: readable }, 'Readable');
    await notify(user.uuid, { business_uuid: gone }, 'Gone');
    const listed = await notifications.list(user.uuid, [readable], false, 1, 10);
    expect(listed.total).toBe(2);
    expect(listed.rows.map((row) => row.title).sort()).toEqual(['About nothing', 'Readable']);
    expect(await notifications.countUnread(user.uuid, [readable])).toBe(2);
    const other = await newUser(ctx);
    expect(await notifications.markRead(other.uuid, [readable], undefined)).toBe(0);
    expect(await notifications.markRead(user.uuid, [readable], [listed.rows[0].uuid])).toBe(1);
    expect(await notifications.markRead(user.uuid, [readable], undefined)).toBe(1);
    expect(await notifications.countUnread(user.uuid, [readable, gone])).toBe(1);
    expect((await notifications.list(user.uuid, [gone], true, 1, 10)).total).toBe(1);
  });

  it('upserts a device setting, keeping the fields an update leaves out', async () => {
    const user = await newUser(ctx);
    const first = await notifications.upsertSetting(user.uuid, {
      deviceId: 'phone',
      platform: 'ios',
      label: 'My phone',
      providers: { fcm: 'token' },
    });
    expect(first.inserted).toBe(true);
    expect(first.setting).toMatchObject({ platform: 'ios', enableNotification: true });
    const second = await notifications.upsertSetting(user.uuid, {
      deviceId: 'phone',
      enableNotification: false,
    });
    expect(second.inserted).toBe(false);
    expect(second.setting).toMatchObject({
      uuid: first.setting.uuid,
      platform: 'ios',
      label: 'My phone',
      enableNotification: false,
      providers: { fcm: 'token' },
    });
    await notifications.upsertSetting(user.uuid, { deviceId: 'tablet' });
    expect((await notifications.listSettings(user.uuid)).map((s) => s.deviceId).sort()).toEqual([
      'phone',
      'tablet',
    ]);
  });
});

import { randomUUID } from 'node:crypto';
import { EntityTypeRegistry } from '../../src/entity/entity-types';
import { MenuZones } from '../../src/entity/menu-zones';
import { OrderableMenuRepository } from '../../src/entity/orderable-menu.repository';
import { createMediumContext, MediumContext } from '../support/medium';
import { LAGOS_ZONES } from '../support/zones';

/**
 * A menu's delivery zones are read from the database once per version of the
 * menu's row: placement passes the version it holds, and the menu's
 * extra_data (hundreds of KiB with 50 polygons) stays in the database while
 * the row is unchanged. Any write of the row is a new version.
 */
describe('the zones of a menu, held per version of its row', () => {
  let ctx: MediumContext;
  let repository: OrderableMenuRepository;
  let types: EntityTypeRegistry;
  const owner = randomUUID();
  let menuUuid: string;

  const read = (held: string | null) =>
    repository.findOrderable(
      types.of('business_menu'),
      types.of('business_menu_item'),
      menuUuid,
      [],
      undefined,
      held,
    );

  beforeAll(async () => {
    ctx = await createMediumContext({
      providers: [EntityTypeRegistry, OrderableMenuRepository, MenuZones],
    });
    repository = ctx.get(OrderableMenuRepository);
    types = ctx.get(EntityTypeRegistry);
    const ns = ctx.config.namespace;
    const [business] = await ctx.sql<{ uuid: string }>(
      `INSERT INTO entities (entity_type, owned_by, meta_key, extra_data)
       VALUES ($1, $2, 'zoned', '{}') RETURNING uuid`,
      [`${ns}_business`, owner],
    );
    const [menu] = await ctx.sql<{ uuid: string }>(
      `INSERT INTO entities (entity_type, owned_by, parent_entity_type, parent_entity_uuid, meta_key, extra_data)
       VALUES ($1, $2, $3, $4, 'zoned', $5) RETURNING uuid`,
      [
        `${ns}_business_menu`,
        owner,
        `${ns}_business`,
        business.uuid,
        JSON.stringify({ fulfilment: { modes: ['delivery'], delivery: { zones: LAGOS_ZONES } } }),
      ],
    );
    menuUuid = menu.uuid;
  });
  afterAll(() => ctx?.close());

  it('leaves extra_data in the database while the row is at the version held', async () => {
    const first = await read(null);
    expect(first).toMatchObject({ extraDataRead: true });
    expect(first!.menu.extraData.fulfilment).toBeDefined();
    const again = await read(first!.version);
    expect(again).toMatchObject({ extraDataRead: false, version: first!.version });
    expect(again!.menu.extraData).toBeNull();
  });

  it('reads it again after any write of the row, even one that keeps updated_at', async () => {
    const before = (await read(null))!.version;
    await ctx.sql(
      `UPDATE entities SET title_name = 'Renamed', updated_at = updated_at WHERE uuid = $1`,
      [menuUuid],
    );
    const after = await read(before);
    expect(after).toMatchObject({ extraDataRead: true });
    expect(after!.version).not.toBe(before);
  });

  it('prepares the zones once, and answers them from what it holds until the row changes', async () => {
    const zones = ctx.get(MenuZones);
    const first = (await read(null))!;
    const resolved = zones.resolve(menuUuid, first, undefined);
    expect(resolved.zones!.map((zone) => zone.key)).toEqual(LAGOS_ZONES.map((zone) => zone.key));
    expect(resolved.extraData).toEqual({ fulfilment: { modes: ['delivery'], delivery: {} } });
    const held = zones.lookup(menuUuid)!;
    expect(held.version).toBe(first.version);
    const second = (await read(held.version))!;
    expect(zones.resolve(menuUuid, second, held).zones).toBe(resolved.zones);
    // A row answered without its extra_data for a version not held is a defect, never a guess.
    expect(() => zones.resolve(menuUuid, second, undefined)).toThrow(/not held/);
  });

  it('holds nothing for a menu without zones', async () => {
    await ctx.sql(
      `UPDATE entities SET extra_data = '{"fulfilment": {"modes": ["pickup"]}}' WHERE uuid = $1`,
      [menuUuid],
    );
    const zones = ctx.get(MenuZones);
    const resolved = zones.resolve(menuUuid, (await read(null))!, undefined);
    expect(resolved.zones).toBeNull();
    expect(zones.lookup(menuUuid)).toBeUndefined();
  });
});

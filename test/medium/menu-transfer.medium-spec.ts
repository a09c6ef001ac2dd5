import { EntityModule } from '../../src/entity';
import { parseJsonImport } from '../../src/entity/menu-import';
import { MenuTransferRepository } from '../../src/entity/menu-transfer.repository';
import { MenuTransferService } from '../../src/entity/menu-transfer.service';
import { ApiError } from '../../src/http/api-error';
import { createMediumContext, MediumContext } from '../support/medium';
import { MediumEntity, MediumUser, newEntity, newUser } from '../support/medium-factory';

/**
 * A menu's import on a real database, no HTTP: items matched by their
 * `external_id` (else their uuid), and the whole file written in one
 * transaction or not at all, whether a row is at fault or the database
 * fails half-way.
 */
describe('menu import (medium)', () => {
  let ctx: MediumContext;
  let transfer: MenuTransferService;
  let repository: MenuTransferRepository;
  let owner: MediumUser;

  beforeAll(async () => {
    ctx = await createMediumContext({ imports: [EntityModule] });
    transfer = ctx.get(MenuTransferService);
    repository = ctx.get(MenuTransferRepository);
    owner = await newUser(ctx);
  });
  afterAll(() => ctx?.close());

  interface Row {
    uuid: string;
    title_name: string;
    status: string;
    external_id: string | null;
    owned_by: string;
    trashed: boolean;
  }

  /** The menu's items as stored, live and trashed, by title. */
  const itemsOf = (menu: MediumEntity) =>
    ctx.sql<Row>(
      `SELECT uuid::text AS uuid, title_name, status, extra_data ->> 'external_id' AS external_id,
         owned_by::text AS owned_by, trashed_at IS NOT NULL AS trashed
       FROM entities WHERE parent_entity_uuid = $1 ORDER BY title_name`,
      [menu.uuid],
    );

  const price = {
    tag: '',
    category: 'Food',
    unit_price_amount: '4.00',
    minimum_quantity_per_order: 1,
    maximum_quantity_per_order: 10,
    sort_position: 0,
  };

  /** A menu with soup (external_id `soup`), bread (known by its uuid) and tea (`tea`). */
  async function menuWithItems() {
    const business = await newEntity(ctx, 'business', owner.uuid);
    const menu = await newEntity(ctx, 'business_menu', owner.uuid, { parent: business });
    const item = (titleName: string, extraData: Record<string, unknown>) =>
      newEntity(ctx, 'business_menu_item', owner.uuid, { parent: menu, titleName, extraData });
    const soup = await item('Soup', { ...price, external_id: 'soup' });
    const bread = await item('Bread', price);
    const tea = await item('Tea', { ...price, external_id: 'tea' });
    return { menu, soup, bread, tea };
  }

  const importOf = (menu: MediumEntity, items: unknown[], options = {}) =>
    transfer.importMenu({ uuid: owner.uuid }, menu.uuid, parseJsonImport({ items }), {
      dryRun: false,
      prune: false,
      ...options,
    });

  it('matches items by external_id, else by uuid, and creates the ones it does not know', async () => {
    const { menu, soup, bread, tea } = await menuWithItems();
    const counts = await importOf(menu, [
      { external_id: 'soup', title_name: 'Pepper soup' },
      { external_id: bread.uuid, title_name: 'Bread' },
      { external_id: 'salad', title_name: 'Salad', extra_data: price },
    ]);
    expect(counts).toEqual({ created: 1, updated: 1, unchanged: 1, trashed: 0, errors: [] });
    const rows = await itemsOf(menu);
    expect(rows.map((row) => [row.title_name, row.external_id, row.trashed])).toEqual([
      ['Bread', null, false],
      ['Pepper soup', 'soup', false],
      ['Salad', 'salad', false],
      ['Tea', 'tea', false],
    ]);
    expect(rows[1].uuid).toBe(soup.uuid);
    expect(rows[2].owned_by).toBe(owner.uuid);
    // Not named and no prune: tea stays as it was.
    expect(rows[3].uuid).toBe(tea.uuid);

    // The same file again matches every item: nothing new, nothing doubled.
    const again = await importOf(menu, [
      { external_id: 'soup', title_name: 'Pepper soup' },
      { external_id: 'salad', title_name: 'Salad', extra_data: price },
    ]);
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect(await itemsOf(menu)).toHaveLength(4);

    // With prune, what the file does not name goes to the trash.
    const pruned = await importOf(menu, [{ external_id: 'soup' }], { prune: true });
    expect(pruned).toMatchObject({ trashed: 3, unchanged: 1 });
    expect((await itemsOf(menu)).filter((row) => !row.trashed).map((row) => row.uuid)).toEqual([
      soup.uuid,
    ]);
  });

  it('writes nothing when one row is at fault, and nothing on a dry run', async () => {
    const { menu } = await menuWithItems();
    const before = await itemsOf(menu);
    const refused = await importOf(
      menu,
      [
        { external_id: 'soup', title_name: 'Changed soup' },
        { external_id: 'new', title_name: 'New dish', extra_data: price },
        { external_id: 'tea', status: 'not-a-status' },
      ],
      { prune: true },
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).getStatus()).toBe(422);
    expect((refused as ApiError).code).toBe('IMPORT_FAILED');
    expect((refused as ApiError).details[0]).toMatchObject({ column: '/items/2/status' });
    expect(await itemsOf(menu)).toEqual(before);

    const dry = await importOf(
      menu,
      [
        { external_id: 'soup', title_name: 'Changed soup' },
        { external_id: 'new', title_name: 'New dish', extra_data: price },
      ],
      { dryRun: true, prune: true },
    );
    expect(dry).toMatchObject({ created: 1, updated: 1, trashed: 2 });
    expect(await itemsOf(menu)).toEqual(before);
  });

  it('rolls back the items it created when the database fails half-way through the file', async () => {
    const { menu } = await menuWithItems();
    const before = await itemsOf(menu);
    const failing = jest
      .spyOn(repository, 'updateItem')
      .mockRejectedValueOnce(new Error('connection lost'));
    try {
      const refused = await importOf(
        menu,
        [
          { external_id: 'new', title_name: 'New dish', extra_data: price },
          { external_id: 'soup', title_name: 'Changed soup' },
        ],
        { prune: true },
      ).catch((error: unknown) => error);
      expect(refused).toEqual(new Error('connection lost'));
      expect(failing).toHaveBeenCalledTimes(1);
    } finally {
      failing.mockRestore();
    }
    expect(await itemsOf(menu)).toEqual(before);
  });

  it('runs two imports of one menu one after the other, so neither doubles an item', async () => {
    const { menu } = await menuWithItems();
    const file = [{ external_id: 'salad', title_name: 'Salad', extra_data: price }];
    const results = await Promise.all([importOf(menu, file), importOf(menu, file)]);
    expect(results.map((counts) => counts.created).sort()).toEqual([0, 1]);
    expect((await itemsOf(menu)).filter((row) => row.external_id === 'salad')).toHaveLength(1);
  });
});

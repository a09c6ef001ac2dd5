import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { entityPath, EntityResponse, newCatalog, newItem, newMenu } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, TestUser } from './support/factory';
import { newTeam, Team } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

const GROUPS = [
  {
    key: 'size',
    title: 'Size',
    translations: { fr: { title: 'Taille' } },
    min_selected: 1,
    max_selected: 1,
    options: [
      { key: 'regular', title: 'Regular', price_delta: '0' },
      {
        key: 'large',
        title: 'Large',
        price_delta: '1.50',
        allergens: ['eggs'],
        translations: { fr: { title: 'Grande' } },
      },
    ],
  },
];

/** The sample CSV of docs/menus.md, as guests of the docs copy it. */
function sampleCsv(): string {
  const page = readFileSync(join(__dirname, '..', 'docs', 'menus.md'), 'utf8');
  const match = /<!-- sample import -->\s*```csv\n([\s\S]*?)```/.exec(page);
  if (!match) throw new Error('docs/menus.md has no sample import CSV');
  return match[1];
}

// R120: export. R121: import, all or nothing. R122: owners and managers only.
describe('menu export and import', () => {
  let t: TestApp;
  let team: Team;
  let owner: TestUser;
  let menu: EntityResponse;

  beforeAll(async () => {
    t = await startTestApp();
    team = await newTeam(t);
    owner = team.owner;
    menu = await newMenu(t, owner, team.catalog.business, {
      extra_data: { languages: { default: 'en', available: ['en', 'fr'] } },
    });
    await newItem(t, owner, menu, {
      title_name: 'Pizza',
      description: '=cmd|calc, "quoted"',
      extra_data: {
        sort_position: 1,
        allergens: ['gluten', 'milk'],
        dietary: ['vegetarian'],
        translations: { fr: { title_name: 'Pizza', description: 'Au four' } },
        option_groups: GROUPS,
        stock: { mode: 'daily', quantity: 40, low_at: 5 },
      },
    });
    await newItem(t, owner, menu, {
      title_name: 'Water',
      description: null,
      extra_data: { sort_position: 2, available: false },
    });
  });
  afterAll(() => t?.close());

  const base = (menuUuid = menu.uuid) => `${t.core}/menus/${menuUuid}`;
  const exportOf = (user: TestUser, kind: 'json' | 'csv', menuUuid = menu.uuid) =>
    t.http.get(`${base(menuUuid)}/export.${kind}`).set(user.headers);
  const importInto = (
    user: TestUser,
    body: string,
    type: string,
    query = '',
    menuUuid = menu.uuid,
  ) =>
    t.http
      .post(`${base(menuUuid)}/import${query}`)
      .set(user.headers)
      .set('Content-Type', type)
      .send(body);

  async function items(menuUuid = menu.uuid): Promise<EntityResponse[]> {
    const res = await t.http
      .get(entityPath(t, 'business_menu_item'))
      .query({ parent_entity_uuid: menuUuid, per_page: 100 })
      .set(owner.headers);
    return expectOk<EntityResponse[]>(res);
  }

  it('exports the bare JSON document as an attachment, with external_id', async () => {
    const res = await exportOf(owner, 'json');
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment/);
    expect(res.body.status).toBeUndefined();
    expect(res.body.menu.extra_data.languages.default).toBe('en');
    const [pizza, water] = res.body.items;
    const stored = await items();
    expect(pizza.external_id).toBe(stored.find((i) => i.title_name === 'Pizza')!.uuid);
    expect(pizza.extra_data.option_groups[0].options[1].allergens).toEqual(['eggs']);
    expect(pizza.extra_data.stock).toEqual({ mode: 'daily', quantity: 40, low_at: 5 });
    expect(water.extra_data.available).toBe(false);
  });

  it('exports CSV with option rows, locale columns and formula-safe cells', async () => {
    const res = await exportOf(owner, 'csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe(
      'external_id,parent_external_id,kind,category,title_name,description,unit_price_amount,' +
        'option_group,available,sort_position,minimum_quantity_per_order,' +
        'maximum_quantity_per_order,allergens,may_contain,dietary,title_name.fr,description.fr',
    );
    expect(lines[1]).toContain(`,item,Food,Pizza,"'=cmd|calc, ""quoted""",10.00,`);
    expect(lines[1]).toContain('gluten;milk,,vegetarian,Pizza,Au four');
    expect(lines[3]).toMatch(
      /^[0-9a-f-]{36}:size:large,[0-9a-f-]{36},option,,Large,,1\.50,size,,1,,,eggs,,,Grande,$/,
    );
  });

  it('importing its own export, JSON or CSV, changes nothing', async () => {
    const before = await items();
    const json = await exportOf(owner, 'json');
    const again = await importInto(owner, json.text, 'application/json');
    expect(expectOk(again)).toEqual({
      created: 0,
      updated: 0,
      unchanged: 2,
      trashed: 0,
      errors: [],
    });
    const csv = await exportOf(owner, 'csv');
    const fromCsv = await importInto(owner, csv.text, 'text/csv');
    expect(expectOk(fromCsv)).toEqual({
      created: 0,
      updated: 0,
      unchanged: 2,
      trashed: 0,
      errors: [],
    });
    expect(await items()).toEqual(before);
  });

  it('imports the sample CSV of the docs into an empty menu, then finds it unchanged', async () => {
    const empty = await newMenu(t, owner, team.catalog.business, {
      extra_data: { languages: { default: 'en', available: ['en', 'fr'] } },
    });
    const dry = await importInto(owner, sampleCsv(), 'text/csv', '?dry_run=true', empty.uuid);
    expect(expectOk(dry)).toMatchObject({ created: 3, updated: 0 });
    expect(await items(empty.uuid)).toHaveLength(0);
    const res = await importInto(owner, sampleCsv(), 'text/csv', '', empty.uuid);
    expect(expectOk(res)).toMatchObject({ created: 3, updated: 0, unchanged: 0 });
    const stored = await items(empty.uuid);
    const jollof = stored.find((item) => item.extra_data.external_id === 'jollof')!;
    expect(jollof.extra_data.allergens).toEqual(['celery']);
    expect(jollof.extra_data.translations.fr.title_name).toBe('Riz jollof');
    expect(jollof.extra_data.option_groups[0].options.map((o: { key: string }) => o.key)).toEqual([
      'chicken',
      'fish',
    ]);
    const again = await importInto(owner, sampleCsv(), 'text/csv', '', empty.uuid);
    expect(expectOk(again)).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    // The exported CSV of the imported menu imports as unchanged too.
    const csv = await exportOf(owner, 'csv', empty.uuid);
    const round = await importInto(owner, csv.text, 'text/csv', '', empty.uuid);
    expect(expectOk(round)).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
  });

  it('two imports of one file at once create each item once', async () => {
    const empty = await newMenu(t, owner, team.catalog.business);
    const answers = await Promise.all(
      [0, 1, 2].map(() => importInto(owner, sampleCsv(), 'text/csv', '', empty.uuid)),
    );
    const counts = answers.map((res) => expectOk(res));
    expect(counts.map((count) => count.created).sort()).toEqual([0, 0, 3]);
    expect(counts.map((count) => count.unchanged).sort()).toEqual([0, 3, 3]);
    expect(await items(empty.uuid)).toHaveLength(3);
  });

  it('matches by external_id only, updates what changed, and prunes only when asked', async () => {
    const target = await newMenu(t, owner, team.catalog.business);
    const kept = await newItem(t, owner, target, { title_name: 'Tea' });
    const header =
      'external_id,kind,title_name,unit_price_amount,minimum_quantity_per_order,maximum_quantity_per_order';
    // Same title as the stored item, another external_id: a new item.
    const file = `${header}\r\nnew-tea,item,Tea,3.00,1,5\r\n`;
    const res = await importInto(owner, file, 'text/csv', '', target.uuid);
    expect(expectOk(res)).toEqual({ created: 1, updated: 0, unchanged: 0, trashed: 0, errors: [] });
    // Columns left out of the file leave their fields as they are.
    const rename = `external_id,kind,title_name\r\n${kept.uuid},item,Green tea\r\n`;
    const renamed = await importInto(owner, rename, 'text/csv', '', target.uuid);
    expect(expectOk(renamed)).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    const stored = await items(target.uuid);
    expect(stored.map((i) => i.title_name).sort()).toEqual(['Green tea', 'Tea']);
    expect(stored.find((i) => i.uuid === kept.uuid)!.extra_data.unit_price_amount).toBe('10.00');
    const onlyNew = `${header}\r\nnew-tea,item,Tea,3.00,1,5\r\n`;
    const pruned = await importInto(owner, onlyNew, 'text/csv', '?prune=true', target.uuid);
    expect(expectOk(pruned)).toEqual({
      created: 0,
      updated: 0,
      unchanged: 1,
      trashed: 1,
      errors: [],
    });
    expect((await items(target.uuid)).map((i) => i.title_name)).toEqual(['Tea']);
    const restored = await t.http
      .post(entityPath(t, 'business_menu_item', 'restore', kept.uuid))
      .set(owner.headers);
    expect(restored.status).toBeLessThan(300);
    const notPruned = await importInto(owner, onlyNew, 'text/csv', '', target.uuid);
    expect(expectOk(notPruned).trashed).toBe(0);
    expect(await items(target.uuid)).toHaveLength(2);
  });

  it('a CSV with one bad row writes nothing and names the row and column', async () => {
    const target = await newMenu(t, owner, team.catalog.business);
    const file = [
      'external_id,kind,title_name,unit_price_amount,minimum_quantity_per_order,maximum_quantity_per_order,allergens',
      'a,item,Bread,1.00,1,5,gluten',
      'b,item,"Cake',
      'with a line",2.00,1,5,eggs;tree nuts',
      'c,item,Soup,abc,1,5,',
      'c:size:x,option,X,0,,,',
    ].join('\r\n');
    const res = await importInto(owner, `${file}\r\n`, 'text/csv', '', target.uuid);
    expectError(res, 422, 'IMPORT_FAILED');
    expect(res.body.error.details).toEqual([
      { row: 3, column: 'allergens', message: expect.stringContaining('tree nuts') },
      { row: 5, column: 'unit_price_amount', message: expect.any(String) },
      { row: 6, column: 'parent_external_id', message: expect.any(String) },
    ]);
    expect(await items(target.uuid)).toHaveLength(0);
  });

  it('a JSON import names its faults by JSON pointer', async () => {
    const target = await newMenu(t, owner, team.catalog.business);
    const body = JSON.stringify({
      items: [
        {
          external_id: 'ok',
          title_name: 'Ok',
          extra_data: {
            unit_price_amount: '1',
            minimum_quantity_per_order: 1,
            maximum_quantity_per_order: 2,
          },
        },
        {
          external_id: 'bad',
          extra_data: {
            unit_price_amount: '1',
            minimum_quantity_per_order: 1,
            maximum_quantity_per_order: 2,
            dietary: ['keto'],
          },
        },
        { title_name: 'No id' },
      ],
    });
    const res = await importInto(owner, body, 'application/json', '', target.uuid);
    expectError(res, 422, 'IMPORT_FAILED');
    expect(res.body.error.details).toEqual([
      { row: null, column: '/items/2/external_id', message: expect.any(String) },
      { row: null, column: '/items/1/extra_data/dietary', message: expect.any(String) },
    ]);
    expect(await items(target.uuid)).toHaveLength(0);
  });

  it('refuses other types and bodies over 5 MB, writing nothing', async () => {
    const plain = await importInto(owner, 'x', 'text/plain');
    expectError(plain, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const header = 'external_id,kind,title_name\r\n';
    const big = header + 'x'.repeat(5 * 1024 * 1024);
    const tooBig = await importInto(owner, big, 'text/csv');
    expectError(tooBig, 413, 'PAYLOAD_TOO_LARGE');
    // Over the JSON limit of other routes, under the import's own: read.
    const padded = JSON.stringify({ items: [], pad: 'x'.repeat(2 * 1024 * 1024) });
    const accepted = await importInto(owner, padded, 'application/json', '?dry_run=true');
    expect(expectOk(accepted).created).toBe(0);
  });

  it('managers export and import; staff and outsiders are refused and nothing is stored', async () => {
    expect((await exportOf(team.manager, 'json')).status).toBe(200);
    const csv = (await exportOf(owner, 'csv')).text;
    expect(expectOk(await importInto(team.manager, csv, 'text/csv')).unchanged).toBe(2);
    const before = await items();
    const hostile = `external_id,kind,title_name,unit_price_amount,minimum_quantity_per_order,maximum_quantity_per_order\r\nevil,item,Evil,1,1,1\r\n`;
    for (const user of [team.staff, team.outsider]) {
      expectError(await exportOf(user, 'json'), 403, 'FORBIDDEN');
      expectError(await exportOf(user, 'csv'), 403, 'FORBIDDEN');
      expectError(await importInto(user, hostile, 'text/csv', '?prune=true'), 403, 'FORBIDDEN');
    }
    expect(await items()).toEqual(before);
    // The owner reaches no menu of another business through the import either.
    const other = await newCatalog(t, team.outsider, { items: [{}] });
    expectError(
      await importInto(owner, hostile, 'text/csv', '', other.menu.uuid),
      403,
      'FORBIDDEN',
    );
    expect(await items(other.menu.uuid)).toHaveLength(1);
    const missing = await exportOf(owner, 'json', '00000000-0000-4000-8000-000000000000');
    expectError(missing, 404, 'NOT_FOUND');
    const noKey = await t.http.get(`${base()}/export.json`).set(apiHeaders(t));
    expect(noKey.status).toBe(401);
  });
});

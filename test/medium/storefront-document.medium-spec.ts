import { gzipSync } from 'node:zlib';
import { sendWritesTogether } from '../../src/database/writes-before-commit';
import {
  MARK_SHARDS,
  StorefrontDocumentRepository,
} from '../../src/entity/storefront-document.repository';
import { createMediumContext, MediumContext } from '../support/medium';
import { MediumEntity, newEntity, newUser } from '../support/medium-factory';

/**
 * The stored storefront documents on a real database, no HTTP: a document
 * is stored against the version it was built from, read while fresh, made
 * stale by any write to its records (the trigger on entities) or by a mark
 * of its menu (a change of stock), and a build from an older version never
 * overwrites a newer state nor reads as fresh after a mark.
 */
describe('storefront document repository (medium)', () => {
  let ctx: MediumContext;
  let documents: StorefrontDocumentRepository;
  let business: MediumEntity;
  let menu: MediumEntity;

  beforeAll(async () => {
    ctx = await createMediumContext({ providers: [StorefrontDocumentRepository] });
    documents = ctx.get(StorefrontDocumentRepository);
    const owner = await newUser(ctx);
    business = await newEntity(ctx, 'business', owner.uuid);
    menu = await newEntity(ctx, 'business_menu', owner.uuid, { parent: business });
  });
  afterAll(() => ctx?.close());

  function built(etag: string) {
    const prefix = Buffer.from(`{"data":{"etag":"${etag}"`);
    const suffix = Buffer.from('}}');
    return {
      businessUuid: business.uuid,
      menuUuid: menu.uuid,
      document: {
        prefix,
        suffix,
        gzipPrefix: gzipSync(prefix),
        prefixCrc: 12345,
        prefixLength: prefix.length,
        etag,
        answerInputs: { accepting_orders: true },
      },
    };
  }

  /** What a build would read now: the row's version and the sum of the menu's marks. */
  const builtFrom = async () =>
    (
      await documents.inSnapshot(
        business.metaKey,
        menu.metaKey,
        async () => menu.uuid,
        (uuid) => uuid,
      )
    ).built;
  const readFresh = () =>
    documents.readFresh(business.metaKey, menu.metaKey, { plain: true, gzip: false });
  /** Marks the menu stale in a transaction of its own that commits, or rolls back when `rollBack`. */
  async function mark(rollBack = false) {
    await ctx.dataSource
      .transaction(async (manager) => {
        await sendWritesTogether(manager, () => documents.markMenusStale(manager, [menu.uuid]));
        if (rollBack) throw new Error('rolled back');
      })
      .catch((error: Error) => {
        if (error.message !== 'rolled back') throw error;
      });
  }

  it('stores a build of the current version, reads it fresh in either form and its ETag without its bytes', async () => {
    // Creating the records already gave the URL a row (stale, with no body): build from its version.
    await documents.store(business.metaKey, menu.metaKey, await builtFrom(), built('"v1"'));
    const fresh = await documents.readFresh(business.metaKey.toUpperCase(), menu.metaKey, {
      plain: true,
      gzip: true,
    });
    const { prefix, suffix } = built('"v1"').document;
    expect(fresh?.document.body).toEqual(Buffer.concat([prefix, suffix]));
    expect(fresh?.document.gzipPrefix).toEqual(gzipSync(prefix));
    expect(fresh?.document.prefixCrc).toBe(12345);
    expect(fresh?.menuUuid).toBe(menu.uuid);
    const plainOnly = await documents.readFresh(business.metaKey, menu.metaKey, {
      plain: true,
      gzip: false,
    });
    expect(plainOnly?.document.gzipPrefix).toBeUndefined();
    expect(await documents.readEtag(business.metaKey, menu.metaKey)).toEqual({
      etag: '"v1"',
      answerInputs: { accepting_orders: true },
      businessUuid: business.uuid,
      menuUuid: menu.uuid,
    });
  });

  it('a write to a record of the storefront makes it stale; a build of the old version is not stored', async () => {
    const before = await builtFrom();
    await ctx.sql(`UPDATE entities SET title_name = 'Renamed' WHERE uuid = $1`, [menu.uuid]);
    const after = await builtFrom();
    expect(after.version).not.toBe(before.version);
    expect(
      await documents.readFresh(business.metaKey, menu.metaKey, { plain: true, gzip: false }),
    ).toBeNull();
    expect(await documents.readEtag(business.metaKey, menu.metaKey)).toBeNull();
    await documents.store(business.metaKey, menu.metaKey, before, built('"old"'));
    expect(
      await documents.readFresh(business.metaKey, menu.metaKey, { plain: true, gzip: false }),
    ).toBeNull();
    await documents.store(business.metaKey, menu.metaKey, after, built('"v2"'));
    expect((await documents.readEtag(business.metaKey, menu.metaKey))?.etag).toBe('"v2"');
  });

  it('a committed mark of the menu makes it stale; a build from before the mark is stored but never read as fresh', async () => {
    const before = await builtFrom();
    await documents.store(business.metaKey, menu.metaKey, before, built('"v3"'));
    expect((await readFresh())?.document.etag).toBe('"v3"');

    await mark();
    expect(await readFresh()).toBeNull();
    expect(await documents.readEtag(business.metaKey, menu.metaKey)).toBeNull();
    // A build that read the stock before the mark committed: its version is still the row's.
    await documents.store(business.metaKey, menu.metaKey, before, built('"old"'));
    expect(await readFresh()).toBeNull();

    const after = await builtFrom();
    expect(after.version).toBe(before.version);
    expect(Number(after.marks)).toBe(Number(before.marks) + 1);
    await documents.store(business.metaKey, menu.metaKey, after, built('"v4"'));
    expect((await readFresh())?.document.etag).toBe('"v4"');
    expect((await documents.readEtag(business.metaKey, menu.metaKey))?.etag).toBe('"v4"');
  });

  it('a mark that rolls back leaves it fresh', async () => {
    await documents.store(business.metaKey, menu.metaKey, await builtFrom(), built('"v5"'));
    await mark(true);
    expect((await readFresh())?.document.etag).toBe('"v5"');
  });

  it('marks spread over the rows of the menu, and every one of them counts', async () => {
    const before = Number((await builtFrom()).marks);
    for (let i = 0; i < 48; i += 1) await mark();
    const rows = await ctx.sql<{ shard: number; version: string }>(
      `SELECT shard, version::text AS version FROM storefront_marks WHERE menu_uuid = $1`,
      [menu.uuid],
    );
    // 48 marks on one of 16 rows each: all on one row has a chance of 16^-47.
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.every((row) => row.shard >= 0 && row.shard < MARK_SHARDS)).toBe(true);
    expect(rows.reduce((sum, row) => sum + Number(row.version), 0)).toBe(before + 48);
    expect(Number((await builtFrom()).marks)).toBe(before + 48);
  });
});

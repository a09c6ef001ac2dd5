import { gzipSync } from 'node:zlib';
import { StorefrontDocumentRepository } from '../../src/entity/storefront-document.repository';
import { createMediumContext, MediumContext } from '../support/medium';
import { MediumEntity, newEntity, newUser } from '../support/medium-factory';

/**
 * The stored storefront documents on a real database, no HTTP: a document
 * is stored against the version it was built from, read while fresh, made
 * stale by any write to its records (the trigger on entities), and a build
 * from an older version never overwrites a newer state.
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

  const version = async () =>
    (await documents.inSnapshot(business.metaKey, menu.metaKey, async () => 'read')).version;

  it('stores a build of the current version, reads it fresh in either form and its ETag without its bytes', async () => {
    // Creating the records already gave the URL a row (stale, with no body): build from its version.
    await documents.store(business.metaKey, menu.metaKey, await version(), built('"v1"'));
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
    const before = await version();
    await ctx.sql(`UPDATE entities SET title_name = 'Renamed' WHERE uuid = $1`, [menu.uuid]);
    const after = await version();
    expect(after).not.toBe(before);
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
});

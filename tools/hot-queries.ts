import type { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '../src/config/config';
import { EntityRepository } from '../src/entity/entity.repository';
import { EntityTypeRegistry } from '../src/entity/entity-types';
import { StorefrontDocumentRepository } from '../src/entity/storefront-document.repository';
import { StorefrontRepository } from '../src/entity/storefront.repository';
import { OrderRepository } from '../src/order/order.repository';
import { ReportRepository } from '../src/report/report.repository';

/*
 * The SQL of the hot queries (placement, storefront, list page, reports),
 * as the repositories write it: each repository method runs against a
 * database that only records the statements it is sent. `npm run sync:sql`
 * writes them to sql/*.sql for review; test/medium/hot-queries-sql checks
 * that the committed files are what the code sends, so a change of a
 * query's text (and maybe its plan) shows in the diff.
 */

/** Answers every statement with one empty-ish row, so a method goes on to its next statement. */
function recordingDatabase(statements: string[]): DataSource {
  const query = async (text: string) => {
    statements.push(text);
    // `aligned` lets a report take its rollup path; anything else reads as absent.
    const row = { aligned: true };
    return /^\s*UPDATE\b/i.test(text) ? [[row], 1] : [row];
  };
  const manager = { query } as unknown as EntityManager;
  return {
    query,
    manager,
    transaction: async (...args: unknown[]) =>
      (args[args.length - 1] as (m: EntityManager) => Promise<unknown>)(manager),
  } as unknown as DataSource;
}

const config = { namespace: 'svc' } as AppConfig;
const types = new EntityTypeRegistry(config);
const BUSINESS = '00000000-0000-4000-8000-000000000001';
const MENU = '00000000-0000-4000-8000-000000000002';
const VIEWER = '00000000-0000-4000-8000-000000000003';
const RANGE = { from: '2026-01-01', to: '2026-01-31', days: 31 };

export interface HotQuery {
  /** The file's name in sql/, without .sql. */
  name: string;
  /** What the query serves, and which method writes it. */
  about: string;
  run: (database: DataSource) => Promise<unknown>;
}

export const HOT_QUERIES: HotQuery[] = [
  {
    name: 'placement',
    about:
      'OrderRepository.insertPlacedOrder: the order, its lines and first event in one statement',
    run: (database) =>
      new OrderRepository(database).insertPlacedOrder(
        database.manager,
        {
          uuid: '00000000-0000-4000-8000-000000000010',
          menuUuid: MENU,
          businessUuid: BUSINESS,
          ownerUuid: VIEWER,
          paymentProcessor: 'cash',
          amount: '10.00',
          currency: 'NGN',
          customerEmailAddress: 'guest@example.test',
          customerPhoneNumber: null,
          customerRequestedOrderEmailCopy: false,
          generalNote: null,
          deliveryData: null,
          onpremiseData: null,
          paymentState: 'unpaid',
          paymentStatus: 'unpaid',
          fulfilmentType: 'pickup',
          requestedTime: null,
          price: {
            itemsSubtotal: '10.00',
            deliveryFee: '0.00',
            discount: '0.00',
            discountCode: null,
            discountUuid: null,
            serviceCharge: '0.00',
            tax: '0.00',
            taxInclusive: false,
            tip: '0.00',
            rates: {},
          },
        } as Parameters<OrderRepository['insertPlacedOrder']>[1],
        [
          {
            position: 0,
            itemUuid: '00000000-0000-4000-8000-000000000020',
            titleName: 'Dish',
            category: 'Food',
            unitPriceAmount: '10.00',
            options: [],
            quantity: 1,
            lineTotal: '10.00',
            itemNote: null,
          },
        ],
        'guest',
      ),
  },
  {
    name: 'storefront-business',
    about: 'StorefrontRepository.findPublicTopByMetaKey: the business of a storefront URL',
    run: (database) =>
      new StorefrontRepository(database).findPublicTopByMetaKey(types.of('business'), 'bukka'),
  },
  {
    name: 'storefront-menu',
    about: 'StorefrontRepository.findPublicChildByMetaKey: the menu of a storefront URL',
    run: (database) =>
      new StorefrontRepository(database).findPublicChildByMetaKey(
        types.of('business_menu'),
        BUSINESS,
        'lunch',
      ),
  },
  {
    name: 'storefront-items',
    about: "StorefrontRepository.listPublicChildrenBySortPosition: a storefront menu's items",
    run: (database) =>
      new StorefrontRepository(database).listPublicChildrenBySortPosition(
        types.of('business_menu_item'),
        MENU,
        500,
      ),
  },
  {
    name: 'storefront-document',
    about: 'StorefrontDocumentRepository.readFresh: the stored storefront of a URL',
    run: (database) =>
      new StorefrontDocumentRepository(database).readFresh('bukka', 'lunch', {
        plain: true,
        gzip: true,
      }),
  },
  {
    name: 'list-page-guest',
    about:
      "EntityRepository.list: a guest's page of a menu's items by sort_position, with the menu's version",
    run: (database) =>
      new EntityRepository(database).list(
        {
          type: types.of('business_menu_item'),
          viewer: undefined,
          parentEntityUuid: MENU,
          sort: { extraDataKey: 'sort_position', direction: 'asc' },
          page: 1,
          perPage: 50,
        },
        true,
      ),
  },
  {
    name: 'list-page-team',
    about:
      "EntityRepository.list: a team member's page of a business's menus, newest first, with the fingerprint",
    run: (database) =>
      new EntityRepository(database).list({
        type: types.of('business_menu'),
        viewer: VIEWER,
        memberOf: [BUSINESS],
        parentEntityUuid: BUSINESS,
        sort: { column: 'created_at', direction: 'desc' },
        page: 1,
        perPage: 50,
      }),
  },
  {
    name: 'report-sales',
    about: 'ReportRepository.sales: a month by day from the rollups',
    run: (database) =>
      new ReportRepository(database, config).sales(BUSINESS, RANGE, 'day', 'Africa/Lagos'),
  },
  {
    name: 'report-items',
    about: "ReportRepository.items: a month's top items from the rollups",
    run: (database) =>
      new ReportRepository(database, config).items(BUSINESS, RANGE, 20, 'Africa/Lagos'),
  },
];

/** The statements `query` sends, in order (the rest of the method may fail on the recorded answers). */
export async function statementsOf(query: HotQuery): Promise<string[]> {
  const statements: string[] = [];
  try {
    await query.run(recordingDatabase(statements));
  } catch {
    // The recorded answers are not real rows; the statements sent so far are what counts.
  }
  return statements;
}

/** The file sql/<name>.sql of a hot query. */
export async function renderHotQuery(query: HotQuery): Promise<string> {
  const statements = await statementsOf(query);
  const body = statements.map((text, i) => {
    const lines = text
      .split('\n')
      .map((line) => line.replace(/\s+$/, ''))
      .filter((line) => line.trim() !== '');
    return `-- statement ${i + 1} of ${statements.length}\n${lines.join('\n')};\n`;
  });
  return (
    `-- ${query.name}: ${query.about}.\n` +
    `-- Written by \`npm run sync:sql\` from the repository's code; do not edit.\n\n` +
    body.join('\n')
  );
}

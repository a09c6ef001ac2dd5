/**
 * EXPLAIN (ANALYZE) of P2's list page, the SQL text the service sends
 * (src/entity/entity.repository.ts), with the parameters bound as the
 * service's driver binds them (one unnamed statement, planned for its values).
 *
 *   node -r @local/ts-node/register/transpile-only bench/explain-list.ts <database url> <menu uuid> [namespace]
 *
 * Run it on a freshly loaded database (no ANALYZE yet) and again after
 * `ANALYZE`: the plan of a list page must not depend on the statistics.
 */
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { EntityRepository } from '../src/entity/entity.repository';
import { EntityType } from '../src/entity/entity-types';

function typeChain(ns: string): EntityType {
  const base = { metaKeyRequired: false, extraData: {} } as unknown as EntityType;
  const business = { ...base, name: `${ns}_business`, suffix: 'business', label: 'Business' };
  const menu = { ...base, name: `${ns}_business_menu`, suffix: 'menu', label: 'Menu' };
  const item = { ...base, name: `${ns}_business_menu_item`, suffix: 'item', label: 'Item' };
  menu.parent = business;
  item.parent = menu;
  return item;
}

async function main(): Promise<void> {
  const [url, menuUuid, ns = 'svc'] = process.argv.slice(2);
  if (!url || !menuUuid) throw new Error('usage: explain-list.ts <database url> <menu uuid> [ns]');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const sent: Array<{ sql: string; params: unknown[] }> = [];
    const capture = {
      query: (sql: string, params: unknown[]) => {
        sent.push({ sql, params });
        return Promise.resolve([{ summary: ['0', '0'] }]);
      },
    } as unknown as DataSource;
    const item = typeChain(ns);
    await new EntityRepository(capture).list({
      type: item,
      viewer: undefined,
      parentEntityType: item.parent!.name,
      parentEntityUuid: menuUuid,
      sort: { extraDataKey: 'sort_position', direction: 'asc' },
      page: 1,
      perPage: 100,
    });
    const { sql, params } = sent[0];
    const stats = await client.query(
      `SELECT relname, reltuples, last_analyze, last_autoanalyze
         FROM pg_class JOIN pg_stat_user_tables USING (relname) WHERE relname = 'entities'`,
    );
    const row = stats.rows[0];
    const analyzed = row.last_analyze ?? row.last_autoanalyze;
    console.log(
      `entities: ${analyzed ? `analyzed at ${new Date(analyzed).toISOString()}` : 'never analyzed'}` +
        ` (reltuples ${row.reltuples})`,
    );
    const plan = await client.query(`EXPLAIN (ANALYZE, COSTS OFF) ${sql}`, params);
    for (const line of plan.rows) console.log(line['QUERY PLAN']);
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

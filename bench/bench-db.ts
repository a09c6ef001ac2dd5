/** The bench's own queries: the admin connection that creates and drops bench_<random>, and reads of the bench database. */
import { Client } from 'pg';
import { log, settings } from './bench-env';
import { sleep } from './processes';

const DRAIN_DEADLINE_MS = 120_000;

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({
    connectionString: settings.adminUrl,
    connectionTimeoutMillis: 10_000,
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function postgresVersion(): Promise<string> {
  return withAdmin(
    async (client) => (await client.query('SHOW server_version')).rows[0].server_version,
  );
}

export async function countOrders(url: string): Promise<number> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return (await client.query('SELECT count(*)::int AS n FROM orders')).rows[0].n;
  } finally {
    await client.end();
  }
}

/** Portions of an item in stored orders, and what its stock counts say were taken. */
export async function stockTotals(
  url: string,
  itemUuid: string,
): Promise<{ ordered: number; taken: number }> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT (SELECT coalesce(sum(quantity), 0) FROM order_lines WHERE item_uuid = $1)::int AS ordered,
              (SELECT coalesce(sum(taken), 0) FROM stock_counts WHERE item_uuid = $1)::int AS taken`,
      [itemUuid],
    );
    return rows[0] as { ordered: number; taken: number };
  } finally {
    await client.end();
  }
}

/**
 * Gives the planner statistics of the seeded rows, as autovacuum does on a
 * live database within a minute of a bulk change. Measured right after a
 * seed, a fresh table has none; the P2 row on unanalyzed tables measures
 * exactly that, before this runs.
 */
export async function analyze(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/** When the entities table last got statistics (ANALYZE or autovacuum), or null if never. */
export async function lastAnalyzed(url: string): Promise<string | null> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const row = (
      await client.query(
        `SELECT greatest(last_analyze, last_autoanalyze) AS at
           FROM pg_stat_user_tables WHERE relname = 'entities'`,
      )
    ).rows[0];
    return row?.at ? `analyzed at ${new Date(row.at).toISOString()}` : null;
  } finally {
    await client.end();
  }
}

/** Waits until the service's outbox worker has sent every due mail, so the next run starts quiet. */
export async function waitForOutboxDrain(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const deadline = Date.now() + DRAIN_DEADLINE_MS;
    for (;;) {
      const pending: number = (
        await client.query(
          "SELECT count(*)::int AS n FROM outbox WHERE status = 'pending' AND available_at <= now()",
        )
      ).rows[0].n;
      if (pending === 0) return;
      if (Date.now() > deadline) {
        log(`outbox still has ${pending} pending rows after ${DRAIN_DEADLINE_MS} ms; going on`);
        return;
      }
      await sleep(250);
    }
  } finally {
    await client.end();
  }
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOT_QUERIES, renderHotQuery } from '../../tools/hot-queries';

/**
 * The committed SQL of the hot queries (sql/*.sql) is what the
 * repositories send: a change of a hot query's text must come with its
 * file, so a reviewer sees it (and asks for its plan). Needs no database:
 * the statements are recorded, not run.
 */
describe('hot queries: committed SQL', () => {
  it.each(HOT_QUERIES.map((query) => [query.name, query] as const))(
    'sql/%s.sql is what the code sends (run `npm run sync:sql` after changing the query)',
    async (name, query) => {
      const committed = readFileSync(join(__dirname, '..', '..', 'sql', `${name}.sql`), 'utf8');
      expect(await renderHotQuery(query)).toBe(committed);
    },
  );

  it('records at least one statement of every hot query', async () => {
    for (const query of HOT_QUERIES) {
      expect(await renderHotQuery(query)).toMatch(/-- statement 1 of/);
    }
  });
});

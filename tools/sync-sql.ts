import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOT_QUERIES, renderHotQuery } from './hot-queries';

/** Writes sql/<name>.sql for every hot query (see tools/hot-queries.ts). */
async function main(): Promise<void> {
  for (const query of HOT_QUERIES) {
    const file = join(__dirname, '..', 'sql', `${query.name}.sql`);
    writeFileSync(file, await renderHotQuery(query));
    process.stdout.write(`wrote ${file}\n`);
  }
}

void main();

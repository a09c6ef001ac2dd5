import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeStatusMoves, statusMoveRows } from '../src/order/domain/order-status';

/*
 * The order's status moves are written once, in the transition table. The API
 * description is generated from it; the documentation is prose, so these tests
 * hold it to the table.
 */
const docs = (name: string) => readFileSync(join(__dirname, '..', 'docs', name), 'utf8');
const words = (text: string) => text.replace(/\s+/g, ' ');

describe('the status moves in the documentation', () => {
  it('docs/orders.md lists exactly the moves of the transition table', () => {
    const table = docs('orders.md').split('### The state machine')[1].split('\n\n')[1];
    const documented = new Map<string, string[]>();
    for (const row of table.split('\n').slice(2)) {
      const [from, next] = row.split('|').slice(1, 3);
      const targets = next.includes('none') ? [] : [...next.matchAll(/`(\w+)`/g)].map((m) => m[1]);
      for (const state of [...from.matchAll(/`(\w+)`/g)].map((m) => m[1])) {
        documented.set(state, targets);
      }
    }
    expect(Object.fromEntries(documented)).toEqual(
      Object.fromEntries(statusMoveRows().map((row) => [row.from, [...row.next]])),
    );
  });

  it('docs/rules.md states the moves in the words generated from the table', () => {
    expect(words(docs('rules.md'))).toContain(describeStatusMoves());
  });

  it('the generated words name every move of the table', () => {
    const text = describeStatusMoves();
    for (const { from, next } of statusMoveRows()) {
      if (next.length === 0) expect(text).toMatch(new RegExp(`\\b${from}\\b[^;]* final`));
      else {
        const targets =
          next.length === 1
            ? next[0]
            : `${next.slice(0, -1).join(', ')} or ${next[next.length - 1]}`;
        expect(text).toContain(`${from} to ${targets}`);
      }
    }
  });
});

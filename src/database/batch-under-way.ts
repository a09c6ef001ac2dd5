interface Waiting<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Writes of one kind that a busy process makes many of at once (a counter
 * bumped by every request, a row marked done by every delivery), sent one
 * statement at a time: an item added while no statement is under way goes
 * at once, alone; items added while one is under way wait for it, and go
 * together as the next. Each caller gets its own item's result, or the
 * statement's error.
 *
 * A write is never answered by a statement sent before it was added, and
 * never waits for more than the one statement under way: under load the
 * statements follow one another with no round trip lost, each carrying
 * what came meanwhile, where one statement per item would each cost a
 * round trip (and, on one row, a wait for the row lock of the one before).
 * Writes inside a transaction must not use this (they must commit or roll
 * back with it).
 */
export class BatchUnderWay<I, R> {
  /** Undefined: nothing under way. Otherwise the items waiting for the statement under way. */
  private waiting: Array<Waiting<I, R>> | undefined;

  /**
   * `writeMany` sends one statement for `items` and answers a result for
   * each, in their order. `idle` is told when the last statement has
   * answered and nothing waits.
   */
  constructor(
    private readonly writeMany: (items: I[]) => Promise<R[]>,
    private readonly idle?: () => void,
  ) {}

  add(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const caller = { item, resolve, reject };
      if (this.waiting) this.waiting.push(caller);
      else {
        this.waiting = [];
        this.send([caller]);
      }
    });
  }

  private send(batch: Array<Waiting<I, R>>): void {
    // Whatever fails, even while the statement is built, fails this batch and frees the way.
    Promise.resolve()
      .then(() => this.writeMany(batch.map((caller) => caller.item)))
      .then(
        (results) => batch.forEach((caller, i) => caller.resolve(results[i])),
        (error: unknown) => batch.forEach((caller) => caller.reject(error)),
      )
      .finally(() => {
        const next = this.waiting!;
        if (next.length > 0) {
          this.waiting = [];
          this.send(next);
        } else {
          this.waiting = undefined;
          this.idle?.();
        }
      });
  }
}

/** At most this many keys go to the database in one statement; more start another. */
const DEFAULT_MAX_KEYS = 500;

interface Waiting<V> {
  resolve: (value: V | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Reads of one kind of row by key, made by requests that arrive together,
 * sent to the database as one statement: every key asked for before the
 * event loop next turns goes into the same `readMany`, and callers asking
 * for the same key share its answer.
 *
 * A read is never answered from one that was already sent when it was
 * asked: each caller gets a statement sent after it asked, so it sees every
 * write committed before that, exactly as a read of its own would. Only
 * the round trips are shared. Reads inside a transaction must not use this
 * (they must see their own transaction); callers pass those to the
 * database themselves.
 */
export class CoalescedReads<V> {
  private pending: Map<string, Array<Waiting<V>>> | null = null;

  /**
   * `readMany` answers each key it finds; a key missing from its map is
   * answered with undefined.
   */
  constructor(
    private readonly readMany: (keys: string[]) => Promise<Map<string, V>>,
    private readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {}

  read(key: string): Promise<V | undefined> {
    if (!this.pending) {
      this.pending = new Map();
      setImmediate(() => this.send());
    }
    let waiting = this.pending.get(key);
    if (!waiting) {
      waiting = [];
      this.pending.set(key, waiting);
      if (this.pending.size >= this.maxKeys) this.send();
    }
    return new Promise<V | undefined>((resolve, reject) => waiting.push({ resolve, reject }));
  }

  private send(): void {
    const batch = this.pending;
    // A full batch was sent early; the immediate that was set for it finds nothing.
    if (!batch || batch.size === 0) return;
    this.pending = null;
    let answered: Promise<Map<string, V>>;
    try {
      answered = this.readMany([...batch.keys()]);
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered.then(
      (found) => {
        for (const [key, waiting] of batch) {
          const value = found.get(key);
          for (const caller of waiting) caller.resolve(value);
        }
      },
      (error: unknown) => {
        for (const waiting of batch.values()) {
          for (const caller of waiting) caller.reject(error);
        }
      },
    );
  }
}
